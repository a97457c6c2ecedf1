// Builds the package: src/ to dist/ with the TypeScript compiler (JavaScript and declarations),
// from an empty dist/ so no file of an earlier build is packed. `npm pack` runs it (prepack).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit' });
process.exit(status ?? 1);
