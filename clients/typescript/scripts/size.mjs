// The main entry's size as a browser bundle carries it: src/index.ts bundled and minified by
// esbuild, then gzipped by zlib (level 9). Writes the figure into README.md between
// <!-- size --> and <!-- /size -->; `--check` only fails when the README says another figure.
// Fails above the budget (8 KB).
//   node scripts/size.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_KB = 8;

/** Minified and gzipped bytes of the main entry, bundled for browsers. */
export async function measureMainEntry() {
  const result = await build({
    entryPoints: [path.join(dir, 'src', 'index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

/** The sentence the README holds between the markers. */
export const sizeSentence = ({ minified, gzipped }) =>
  `${(gzipped / 1024).toFixed(1)} KB minified and gzipped (${(minified / 1024).toFixed(1)} KB minified)`;

const MARKERS = /<!-- size -->[^<]*<!-- \/size -->/;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = await measureMainEntry();
  const readmeFile = path.join(dir, 'README.md');
  const readme = readFileSync(readmeFile, 'utf8');
  const updated = readme.replace(MARKERS, `<!-- size -->${sizeSentence(size)}<!-- /size -->`);
  console.log(`main entry: ${sizeSentence(size)}; budget ${BUDGET_KB} KB`);
  if (!MARKERS.test(readme)) throw new Error('README.md has no <!-- size --> … <!-- /size --> markers');
  if (process.argv.includes('--check')) {
    if (updated !== readme) {
      console.error('README.md states another size: run `npm run size` in clients/typescript and commit the README');
      process.exit(1);
    }
  } else {
    writeFileSync(readmeFile, updated);
  }
  if (size.gzipped > BUDGET_KB * 1024) {
    console.error(`the main entry is over its budget of ${BUDGET_KB} KB`);
    process.exit(1);
  }
}
