import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../../src/visibility/csv.js';

describe('csvRecord', () => {
  it('when fields hold commas, quotes or line breaks, quotes them and doubles the quotes (RFC 4180)', () => {
    expect(csvRecord(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 42, true, null])).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\rhere",42,true,\r\n',
    );
  });

  it('when a text starts like a formula, prefixes it with a quote, but writes computed numbers as they are', () => {
    expect(csvRecord(['=1+1', '+1', '-1', '@A1', '\tx', '\rx', 'a=1', -0.25, '-0.25'])).toBe(
      `'=1+1,'+1,'-1,'@A1,'\tx,"'\rx",a=1,-0.25,'-0.25\r\n`,
    );
  });
});
