import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../../src/demo/bootstrap.js';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { clientDir, clientProject, compileInProject, tarballFiles, type ClientProject } from '../support/packed-client.js';
import { startTestServerForThisTest } from '../support/test-server.js';

const run = promisify(execFile);

// The package a client team installs: what the tarball holds, that its types compile in a strict
// project of theirs (Node's and a browser's), that its README's first program runs as written, and
// that the README states the main entry's measured size.
let project: ClientProject;

beforeAll(async () => {
  project = await clientProject();
}, 180_000);
afterAll(() => project?.cleanup());

const readme = readFileSync(path.join(clientDir, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(clientDir, 'package.json'), 'utf8')) as Record<string, any>;

/** A program a team writes: typed calls, and calls the types must refuse. */
const CONSUMER = `
import {
  ApiError, CONTRACT_VERSION, NotFoundError, PermissionError, SecretShownOnceError, ValidationError, WorkspaceClient,
  type ErrorCode, type ResponseMeta, type Scope,
} from '@workspace-read-api/client';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@workspace-read-api/client/webhooks';

export async function program(api: WorkspaceClient, signal: AbortSignal): Promise<string[]> {
  const seen: string[] = [CONTRACT_VERSION];
  const me = await api.get('/api/v1/me', { signal, timeout: 5_000 });
  const workspaceId: string = me.workspace.id;
  const prompts = await api.get('/api/v1/visibility/prompts', { query: { limit: 10, range: '7d' } });
  const text: string = prompts.items[0]!.text;
  for await (const answer of api.list('/api/v1/visibility/answers', { query: { limit: 100 } })) seen.push(answer.id);
  for await (const page of api.pages('/api/v1/content-map/topics')) seen.push(String(page.meta.rateLimit?.remaining));
  const read = await api.getWithMeta('/api/v1/visibility/setup', { ifNoneMatch: 'W/"x"' });
  if (!read.notModified) seen.push(String(read.data.collection_cadence));
  const meta: ResponseMeta = await api.head('/api/v1/visibility/exports/answers', { query: { range: '7d' } });
  const csv: string = await api.download('/api/v1/visibility/exports/answers', { query: { range: '7d' } });
  const lines = await api.downloadLines('/api/v1/visibility/exports/daily-rates.ndjson', { query: { range: '7d' } });
  const day: string = lines[0]!.date;
  // @ts-expect-error a CSV download has no typed lines
  await api.downloadLines('/api/v1/visibility/exports/answers', { query: { range: '7d' } });
  const hook = await api.admin.createWebhook({ path: { workspace_id: workspaceId }, body: { name: 'n', url: 'https://example.com/h', events: ['content.status_updated'] }, idempotencyKey: 'k' });
  const secret: string = hook.secret;
  const keys = await api.adminWithMeta.listApiKeys({ path: { workspace_id: workspaceId } });
  if (!keys.notModified) seen.push(keys.data.items.map((k) => k.name).join(), String(keys.meta.replayed));
  try {
    await api.get('/api/v1/visibility/prompts/{prompt}', { path: { prompt: 'x' } });
  } catch (error) {
    if (error instanceof PermissionError) { const missing: Scope[] = error.missing; seen.push(...missing); }
    if (error instanceof ValidationError) seen.push(...error.fieldErrors.map((f) => \`\${f.in}.\${f.name}\`));
    if (error instanceof SecretShownOnceError) seen.push(String(error.resourceId));
    if (error instanceof NotFoundError || error instanceof ApiError) { const code: ErrorCode | null = error.code; seen.push(String(code)); }
  }
  try {
    const event: WebhookEvent = await verifyWebhook('{}', new Headers(), ['whsec_a', 'whsec_b'], { allowLegacySignatureWithoutTimestamp: false });
    seen.push(event.event);
  } catch (error) {
    if (error instanceof WebhookVerificationError) seen.push(error.message);
  }
  // @ts-expect-error a path the contract does not have
  await api.get('/api/v1/nowhere');
  // @ts-expect-error a parameter the read does not take
  await api.get('/api/v1/visibility/prompts', { query: { colour: 'red' } });
  // @ts-expect-error a read by id needs its id
  await api.get('/api/v1/visibility/prompts/{prompt}');
  // @ts-expect-error an export is not a JSON read
  await api.get('/api/v1/visibility/exports/answers', { query: { range: '7d' } });
  // @ts-expect-error a body field the operation does not take
  await api.admin.createApiKey({ path: { workspace_id: workspaceId }, body: { name: 'n', colour: 'red' } });
  seen.push(workspaceId, text, String(meta.status), csv, secret, day);
  return seen;
}
`;

describe('@workspace-read-api/client as a package', () => {
  it('is packed with its built JavaScript, declarations, licence and README only, and a manifest a registry accepts', async () => {
    const files = await tarballFiles(project.tarball);
    expect(files.filter((f) => !f.startsWith('package/dist/'))).toEqual(['package/LICENSE', 'package/README.md', 'package/package.json']);
    expect(files).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/webhooks.js', 'package/dist/webhooks.d.ts', 'package/dist/generated/openapi.d.ts']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(manifest).toMatchObject({
      name: '@workspace-read-api/client', version: openapi.info.version, license: 'Apache-2.0', type: 'module', sideEffects: false,
      engines: { node: '>=22' }, types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' } },
    });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    const root = JSON.parse(readFileSync(path.join(clientDir, '..', '..', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect({ private: root.private, license: root.license }).toEqual({ private: true, license: 'Apache-2.0' });
    // Nothing the package loads lies outside it, and its main entry loads nothing of Node's.
    const installed = path.dirname(project.resolve('@workspace-read-api/client/package.json'));
    const { stdout } = await run('grep', ['-rhoE', String.raw`from '[^']+'`, path.join(installed, 'dist')]);
    const specifiers = [...new Set(stdout.split('\n').filter(Boolean))];
    expect(specifiers.filter((s) => !/^from '\.\.?\/[^.][^']*\.js'$/.test(s) || s.includes('../..'))).toEqual([]);
  });

  it('compiles in a strict project without skipLibCheck, with Node types and with only the DOM', { timeout: 180_000 }, async () => {
    const [node, browser, wrong] = await Promise.all([
      compileInProject(project, { 'program.ts': CONSUMER }, { lib: ['ES2023'], node: true }),
      compileInProject(project, { 'program.ts': CONSUMER }, { lib: ['ES2022', 'DOM', 'DOM.Iterable'], node: false }),
      // The same program with one wrong field is refused: the types are not `any` or `never`.
      compileInProject(project, { 'program.ts': CONSUMER.replace('const text: string = prompts.items[0]!.text;', 'const text: number = prompts.items[0]!.text;') }, { lib: ['ES2023'], node: true }),
    ]);
    expect(node.errors).toBe('');
    expect(browser.errors).toBe('');
    expect(wrong.errors).toMatch(/error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it("runs the README's first program, as written, against a live server", { timeout: 120_000 }, async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(readFileSync(path.join(clientDir, 'examples', 'prompts-with-analytics.ts'), 'utf8')).toBe(block);
    const compiled = await compileInProject(project, { 'prompts-with-analytics.ts': block }, { lib: ['ES2023'], node: true });
    expect(compiled.errors).toBe('');
    const server = await startTestServerForThisTest();
    const demo = (await bootstrapDemo(server.store, async (s, workspaceId) => {
      await importLines(s, workspaceId, generateDemoData({ seed: 3, prompts: 3, days: 7, answersPerDay: 1, idNamespace: workspaceId }));
    }))!;
    const { stdout } = await run(process.execPath, [path.join(compiled.outDir, 'prompts-with-analytics.js')], { env: { ...process.env, WORKSPACE_API_KEY: demo.key, WORKSPACE_API_URL: server.url } });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => /^.+ (0|1|0\.\d+|null) (0|1|0\.\d+|null) \d+$/.test(line))).toBe(true);
  });

  it('states in its README the size of its main entry, minified and gzipped, as measured, within the 8 KB budget', async () => {
    const { stdout } = await run(process.execPath, [path.join(clientDir, 'scripts', 'size.mjs'), '--check'], { cwd: clientDir });
    const measured = /main entry: ([\d.]+) KB minified and gzipped/.exec(stdout)![1]!;
    expect(readme).toContain(`<!-- size -->${measured} KB minified and gzipped`);
    expect(Number(measured)).toBeLessThanOrEqual(8);
  });
});
