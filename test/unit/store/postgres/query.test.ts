import { describe, expect, it } from 'vitest';
import { compileSql } from '../../../../src/store/postgres/query.js';

describe('compileSql: SQLite-style parameters to PostgreSQL placeholders', () => {
  it('numbers each ? in order', () => {
    expect(compileSql('SELECT * FROM t WHERE a = ? AND b > ?')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b > $2',
      sources: [0, 1],
      style: 'positional',
    });
  });

  it('gives each distinct @name one placeholder, however often it appears', () => {
    expect(compileSql('SELECT @a, @b_2 WHERE x = @a OR @b_2 IS NULL')).toEqual({
      text: 'SELECT $1, $2 WHERE x = $1 OR $2 IS NULL',
      sources: ['a', 'b_2'],
      style: 'named',
    });
  });

  it('leaves string literals, quoted names, comments, casts, operators and dollar-quoted bodies alone', () => {
    const sql = [
      "SELECT 'it''s ? @x', E'a\\' ? @y', \"odd?@name\", v::text, j @> k, k <@ j",
      '-- a comment with ? and @z',
      '/* and ? @w */ FROM t WHERE id = @id AND body = $$ ? @q $$ AND n = $tag$@r$tag$',
    ].join('\n');
    const out = compileSql(sql);
    expect(out.text).toBe(sql.replace('id = @id', 'id = $1'));
    expect(out.sources).toEqual(['id']);
  });

  it('does not take an e-mail-like name@host inside an identifier run for a parameter', () => {
    expect(compileSql('SELECT a@b FROM t').sources).toEqual([]);
  });

  it('refuses a statement that mixes ? and @name, or writes its own $n', () => {
    expect(() => compileSql('SELECT ? , @a')).toThrow(/mixes \? and @name/);
    expect(() => compileSql('SELECT $1')).toThrow(/its own \$n placeholders/);
  });

  it('returns the same compiled statement for the same text', () => {
    const text = 'SELECT * FROM cached WHERE id = ?';
    expect(compileSql(text)).toBe(compileSql(text));
  });
});
