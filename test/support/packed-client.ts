import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const clientDir = path.join(root, 'clients', 'typescript');

/** What goes into the package: a change to any of these is another tarball. */
function packageInputs(dir = clientDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['dist', 'examples', 'node_modules'].includes(entry.name) && dir === clientDir ? [] : packageInputs(full);
    return [full];
  }).sort();
}

/**
 * Where the packed tarball is kept between processes and runs: a cache of the checkout, beside
 * other tools' caches, not the temp folder (a run leaves nothing there).
 */
const packCache = path.join(root, 'node_modules', '.cache', 'workspace-read-api');

/**
 * The tarball `npm pack` makes of clients/typescript (its prepack builds dist/), made once per
 * content of the package's sources: the test files of test/clients/ share it, each run after a
 * change packs again and removes the tarball of the sources before. Made in a folder of its own
 * and renamed into place, so two processes packing at once each see a whole tarball.
 */
async function packedClient(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of packageInputs()) hash.update(path.relative(clientDir, file)).update(readFileSync(file));
  const name = `client-pack-${hash.digest('hex').slice(0, 16)}`;
  const dir = path.join(packCache, name);
  const find = () => existsSync(dir) ? readdirSync(dir).find((file) => file.endsWith('.tgz')) : undefined;
  const found = find();
  if (found) return path.join(dir, found);
  mkdirSync(packCache, { recursive: true });
  const scratch = mkdtempSync(`${dir}-`);
  await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: clientDir, maxBuffer: 16 * 1024 * 1024 });
  try {
    renameSync(scratch, dir);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const other of readdirSync(packCache)) {
    if (/^client-pack-[0-9a-f]{16}$/.test(other) && other !== name) rmSync(path.join(packCache, other), { recursive: true, force: true });
  }
  return path.join(dir, find()!);
}

export interface ClientProject {
  /** A fresh project outside the checkout with the tarball installed. */
  dir: string;
  tarball: string;
  /** Where Node resolves `@workspace-read-api/client` from the project (its `exports`). */
  resolve: (specifier: string) => string;
  cleanup: () => void;
}

/** A new project in a temp folder with the packed client installed, offline (it has no dependencies). */
export async function clientProject(): Promise<ClientProject> {
  const tarball = await packedClient();
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-client-project-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'client-team-project', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', tarball], { cwd: dir });
  const require = createRequire(path.join(dir, 'package.json'));
  return { dir, tarball, resolve: (specifier) => require.resolve(specifier), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

type ClientModule = typeof import('../../clients/typescript/src/index.js');
type WebhooksModule = typeof import('../../clients/typescript/src/webhooks.js');

/** The installed package's main entry, loaded as a team's program loads it (typed by its sources). */
export async function importClient(project: ClientProject): Promise<ClientModule> {
  return (await import(pathToFileURL(project.resolve('@workspace-read-api/client')).href)) as ClientModule;
}

/** The installed package's `/webhooks` entry. */
export async function importWebhooks(project: ClientProject): Promise<WebhooksModule> {
  return (await import(pathToFileURL(project.resolve('@workspace-read-api/client/webhooks')).href)) as WebhooksModule;
}

/**
 * Compiles `files` (name → source) in the project with the checkout's TypeScript under `strict`
 * without `skipLibCheck`, `types` and `lib` as given; answers the compiler's output ('' when clean)
 * and the folder of the compiled JavaScript.
 */
export async function compileInProject(project: ClientProject, files: Record<string, string>, options: { lib: string[]; node: boolean }): Promise<{ errors: string; outDir: string }> {
  const name = `check-${randomUUID().slice(0, 8)}`;
  const src = path.join(project.dir, name);
  mkdirSync(src);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(src, file), text);
  const config = path.join(project.dir, `${name}.tsconfig.json`);
  const outDir = path.join(project.dir, `${name}-out`);
  writeFileSync(config, JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: options.lib,
      strict: true, skipLibCheck: false, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true,
      typeRoots: [path.join(root, 'node_modules', '@types')], types: options.node ? ['node'] : [],
      outDir,
    },
    include: [src],
  }));
  try {
    await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config]);
    return { errors: '', outDir };
  } catch (failed) {
    return { errors: String((failed as { stdout?: string }).stdout ?? failed), outDir };
  }
}

/** The files of a tarball, as `tar` lists them. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  return stdout.split('\n').filter(Boolean).sort();
}
