import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it, expect } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/check-breaking-changes.mjs', import.meta.url));
const fixtures = fileURLToPath(new URL('../../fixtures/contract-diff/', import.meta.url));

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A temp workspace with `released/` and `current/` holding the given fixtures
 * (optionally edited), and a CHANGELOG.md when `changelog` is given.
 */
function workspace(opts: {
  released?: { openapi: string; asyncapi?: string };
  current: { openapi: string; asyncapi?: string; version?: string };
  changelog?: string;
}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-diff-'));
  temps.push(dir);
  const put = (folder: string, file: string, fixture: string, version?: string) => {
    mkdirSync(path.join(dir, folder), { recursive: true });
    const doc = JSON.parse(readFileSync(path.join(fixtures, fixture), 'utf8'));
    if (version) doc.info.version = version;
    writeFileSync(path.join(dir, folder, file), JSON.stringify(doc));
  };
  if (opts.released) {
    put('released', 'openapi.json', opts.released.openapi);
    if (opts.released.asyncapi) put('released', 'asyncapi.json', opts.released.asyncapi);
  }
  put('current', 'openapi.json', opts.current.openapi, opts.current.version);
  if (opts.current.asyncapi) put('current', 'asyncapi.json', opts.current.asyncapi, opts.current.version);
  if (opts.changelog !== undefined) writeFileSync(path.join(dir, 'CHANGELOG.md'), opts.changelog);
  return dir;
}

function run(dir: string, ...extra: string[]) {
  const r = spawnSync(
    process.execPath,
    [script, '--released', path.join(dir, 'released'), '--current', path.join(dir, 'current'), '--changelog', path.join(dir, 'CHANGELOG.md'), ...extra],
    { encoding: 'utf8' },
  );
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const BREAKING_CHANGELOG = `# Changelog

## 2.0.0

### Breaking
- \`createItem\`: removed.
- \`UserSummary.email\`: users no longer expose their email.
- \`keyEvents\` channel and its \`sendKeyRevoked\` operation removed.
- \`ItemRef.revision\` removed from webhook payloads.

## 1.0.0
- First release.
`;

describe('check-breaking-changes CLI', () => {
  it('fails with a clear message when the released folder is missing', () => {
    const dir = workspace({ current: { openapi: 'openapi.base.json' } });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('No released contract');
    expect(r.err).toContain('--release');
  });

  it('fails on a breaking change without a version bump', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.base.json' },
      current: { openapi: 'openapi.breaking.json', asyncapi: 'asyncapi.base.json' },
    });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('BREAKING removed-operation: createItem: operation POST /api/v1/items removed');
    expect(r.out).toContain('BREAKING removed-field: getMe 200 application/json data.email:');
    expect(r.err).toContain('not a major bump (needs 2.0.0');
  });

  it('fails when the major is bumped but the CHANGELOG does not list every break', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json' },
      current: { openapi: 'openapi.breaking.json', version: '2.0.0' },
      changelog: '# Changelog\n\n## 2.0.0\n- `createItem` removed.\n- `UserSummary.emailVerified` added.\n',
    });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('not named in the "## 2.0.0" CHANGELOG section');
    // `UserSummary.emailVerified` must not count as naming `UserSummary.email`.
    expect(r.err).toContain('getItem 200 application/json data.owner.email (or UserSummary.email)');
    expect(r.err).not.toMatch(/^\s+createItem$/m);
  });

  it('fails when the major is bumped but there is no section for the new version', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json' },
      current: { openapi: 'openapi.breaking.json', version: '2.0.0' },
      changelog: '# Changelog\n\n## 1.0.0\n- `createItem` removed.\n',
    });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('no "## 2.0.0" section');
  });

  it('passes when the major version is bumped and the CHANGELOG lists each break', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.base.json' },
      current: { openapi: 'openapi.breaking.json', asyncapi: 'asyncapi.breaking.json', version: '2.0.0' },
      changelog: BREAKING_CHANGELOG,
    });
    const r = run(dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('BREAKING removed-channel: keyEvents:');
    expect(r.out).toContain('Contract check passed.');
  });

  it('passes on additive changes without a version bump', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.base.json' },
      current: { openapi: 'openapi.additive.json', asyncapi: 'asyncapi.additive.json' },
    });
    const r = run(dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('NON-BREAKING added-operation: listTags:');
    expect(r.out).toContain('NON-BREAKING added-message: workspaceEvents itemCreated:');
    expect(r.out).not.toContain('BREAKING removed');
  });

  it('--release copies the current documents, after which the check passes', () => {
    const dir = workspace({ current: { openapi: 'openapi.additive.json', asyncapi: 'asyncapi.base.json', version: '1.1.0' } });
    const r = run(dir, '--release');
    expect(r.code).toBe(0);
    for (const file of ['openapi.json', 'asyncapi.json']) {
      expect(readFileSync(path.join(dir, 'released', file), 'utf8')).toBe(readFileSync(path.join(dir, 'current', file), 'utf8'));
    }
    expect(JSON.parse(readFileSync(path.join(dir, 'released', 'version.json'), 'utf8'))).toEqual({ openapi: '1.1.0', asyncapi: '1.1.0' });
    const again = run(dir);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 change(s)');
  });

  // A document released again with changes under the version it was released with tells clients
  // nothing changed: the events gained a field once while the AsyncAPI document stayed at 1.0.0.
  it('--release refuses a document that changed since its release but kept its version, copying nothing', () => {
    const released = { openapi: 'openapi.base.json', asyncapi: 'asyncapi.base.json' };
    const dir = workspace({ released, current: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.additive.json' } });
    const before = readFileSync(path.join(dir, 'released', 'asyncapi.json'), 'utf8');
    const r = run(dir, '--release');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^AsyncAPI: \d+ change\(s\) since the released 1\.0\.0, but info\.version is still 1\.0\.0: give it a new version \(a minor one for additive changes\)/m);
    expect(r.err).not.toContain('OpenAPI');
    expect(readFileSync(path.join(dir, 'released', 'asyncapi.json'), 'utf8')).toBe(before);
    expect(existsSync(path.join(dir, 'released', 'version.json'))).toBe(false);

    const bumped = workspace({ released, current: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.additive.json', version: '1.1.0' } });
    expect(run(bumped, '--release').code).toBe(0);
  });

  it('fails when a current document exists that was never released', () => {
    const dir = workspace({
      released: { openapi: 'openapi.base.json' },
      current: { openapi: 'openapi.base.json', asyncapi: 'asyncapi.base.json' },
    });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/AsyncAPI: .*asyncapi\.json is missing; record it with: .*--release/);
  });

  it('rejects unknown arguments with exit code 2', () => {
    const dir = workspace({ current: { openapi: 'openapi.base.json' } });
    const r = run(dir, '--bogus');
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown argument --bogus');
    expect(existsSync(path.join(dir, 'released'))).toBe(false);
  });
});

/** A one-operation contract whose 422 carries `data` of the given schema. */
function contractWith422Data(version: string, data: object): object {
  return {
    openapi: '3.1.0',
    info: { title: 'T', version },
    paths: {
      '/api/v1/me': {
        get: {
          operationId: 'getMe',
          responses: {
            '422': {
              description: 'Invalid',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorEnvelope' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        ValidationErrorEnvelope: { type: 'object', required: ['code', 'messages', 'data'], properties: { code: { const: 4220 }, messages: { type: 'string' }, data } },
        ValidationErrorDetails: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: { type: 'object' } } } },
      },
    },
  };
}

function workspaceOf(released: object, current: object, changelog: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-diff-'));
  temps.push(dir);
  for (const [folder, doc] of [['released', released], ['current', current]] as const) {
    mkdirSync(path.join(dir, folder));
    writeFileSync(path.join(dir, folder, 'openapi.json'), JSON.stringify(doc));
  }
  writeFileSync(path.join(dir, 'CHANGELOG.md'), changelog);
  return dir;
}

describe('check-breaking-changes CLI: the accepted change of 1.1.0 (a 422 data null → {errors})', () => {
  const NULL_DATA = { type: 'null' };
  const ERRORS_DATA = { $ref: '#/components/schemas/ValidationErrorDetails' };
  const ANNOUNCED = '# Changelog\n\n## 1.1.0\n- `ValidationErrorEnvelope.data`: null → `{errors}` on 422 (accepted change).\n';

  it('passes in a minor version when the CHANGELOG section names it', () => {
    const r = run(workspaceOf(contractWith422Data('1.0.0', NULL_DATA), contractWith422Data('1.1.0', ERRORS_DATA), ANNOUNCED));
    expect(r.err).toBe('');
    expect(r.out).toContain('ACCEPTED changed-type: getMe 422 application/json data: type null → object (or name ValidationErrorDetails)');
    expect(r.code).toBe(0);
  });

  it('fails when the CHANGELOG does not name it', () => {
    const r = run(workspaceOf(contractWith422Data('1.0.0', NULL_DATA), contractWith422Data('1.1.0', ERRORS_DATA), '# Changelog\n\n## 1.1.0\n- More.\n'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('BREAKING changed-type: getMe 422 application/json data: type null → object');
  });

  it('does not accept another change to the same field (null → string)', () => {
    const r = run(workspaceOf(contractWith422Data('1.0.0', NULL_DATA), contractWith422Data('1.1.0', { type: 'string' }), ANNOUNCED));
    expect(r.code).toBe(1);
    expect(r.out).toContain('BREAKING changed-type: getMe 422 application/json data: type null → string');
  });

  it('does not accept the same change on another status (a 200 whose data was null)', () => {
    const released = contractWith422Data('1.0.0', NULL_DATA) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    const current = contractWith422Data('1.1.0', ERRORS_DATA) as typeof released;
    for (const doc of [released, current]) {
      const responses = doc.paths['/api/v1/me']!.get.responses;
      responses['200'] = responses['422'];
      delete responses['422'];
    }
    const r = run(workspaceOf(released, current, ANNOUNCED));
    expect(r.code).toBe(1);
    expect(r.out).toContain('BREAKING changed-type: getMe 200 application/json data: type null → object');
  });
});

describe('check-breaking-changes CLI: the accepted changes of 1.2.0 (NDJSON exports moved to their own operations)', () => {
  const exportContract = (version: string, formats: string[], media: string[]) => ({
    openapi: '3.1.0',
    info: { title: 'T', version },
    paths: {
      '/api/v1/visibility/exports/answers': {
        get: {
          operationId: 'exportAnswers',
          parameters: [{ name: 'format', in: 'query', schema: { type: 'string', enum: formats } }],
          responses: { 200: { description: 'File', content: Object.fromEntries(media.map((m) => [m, { schema: { type: 'string' } }])) } },
        },
      },
    },
  });
  const released = exportContract('1.1.0', ['csv', 'ndjson'], ['text/csv', 'application/x-ndjson']);
  const current = exportContract('1.2.0', ['csv'], ['text/csv']);
  const ANNOUNCED = '# Changelog\n\n## 1.2.0 (unreleased)\n- Removed: `exportAnswers query format` value ndjson and `exportAnswers 200 application/x-ndjson`.\n';

  it('passes in 1.2.0 when the CHANGELOG section names both changes', () => {
    const r = run(workspaceOf(released, current, ANNOUNCED));
    expect(r.out).toContain('ACCEPTED removed-enum-value: exportAnswers query format: value "ndjson" removed');
    expect(r.out).toContain('ACCEPTED removed-response-media-type: exportAnswers 200 application/x-ndjson');
    expect(r.code).toBe(0);
  });

  it('fails when the CHANGELOG names neither, and for the same removal on an operation the list does not name', () => {
    const unnamed = run(workspaceOf(released, current, '# Changelog\n\n## 1.2.0\n- More.\n'));
    expect(unnamed.code).toBe(1);
    expect(unnamed.out).toContain('BREAKING removed-enum-value: exportAnswers query format');
    const other = (doc: ReturnType<typeof exportContract>) => JSON.parse(JSON.stringify(doc).replace('exportAnswers', 'listAnswers')) as object;
    const elsewhere = run(workspaceOf(other(released), other(current), ANNOUNCED.replaceAll('exportAnswers', 'listAnswers')));
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.out).toContain('BREAKING removed-enum-value: listAnswers query format');
  });
});

describe('check-breaking-changes CLI: the accepted changes not released yet (a blank name, an empty webhook update)', () => {
  const webhookContract = (name: object, body: object) => ({
    openapi: '3.1.0',
    info: { title: 'T', version: '1.2.0' },
    paths: {
      '/api/workspace/{workspace_id}/webhooks/{webhook_id}': {
        patch: {
          operationId: 'updateWebhook',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateWebhookRequest' } } } },
          responses: { 200: { description: 'Updated' } },
        },
      },
    },
    components: { schemas: { UpdateWebhookRequest: { type: 'object', ...body, properties: { name: { type: 'string', minLength: 1, ...name } } } } },
  });
  const released = webhookContract({}, {});
  const current = webhookContract({ pattern: '\\S' }, { minProperties: 1 });
  const ANNOUNCED = '# Changelog\n\n## Unreleased\n- `UpdateWebhookRequest.name` carries `pattern`; `UpdateWebhookRequest` carries `minProperties: 1`.\n\n## 1.2.0\n- Earlier.\n';

  it('passes under the same info.version when the Unreleased section names both', () => {
    const r = run(workspaceOf(released, current, ANNOUNCED));
    expect(r.out).toContain('ACCEPTED changed-constraint: updateWebhook request application/json name: pattern (none) → "\\\\S"');
    expect(r.out).toContain('ACCEPTED tightened-constraint: updateWebhook request application/json: minProperties (none) → 1');
    expect(r.code).toBe(0);
  });

  it('fails when only a released version\'s section names them, when the Unreleased section does not, and for another pattern', () => {
    const inReleased = run(workspaceOf(released, current, ANNOUNCED.replace('## Unreleased\n', '## 1.2.0\n').replace('\n## 1.2.0\n- Earlier.\n', '')));
    expect(inReleased.code).toBe(1);
    expect(inReleased.out).toContain('BREAKING changed-constraint: updateWebhook request application/json name');
    const unnamed = run(workspaceOf(released, current, '# Changelog\n\n## Unreleased\n- `UpdateWebhookRequest.description` reworded.\n'));
    expect(unnamed.code).toBe(1);
    expect(unnamed.out).toContain('BREAKING tightened-constraint: updateWebhook request application/json: minProperties (none) → 1');
    const other = run(workspaceOf(released, webhookContract({ pattern: '^[a-z]+$' }, { minProperties: 1 }), ANNOUNCED));
    expect(other.code).toBe(1);
    expect(other.out).toContain('BREAKING changed-constraint: updateWebhook request application/json name: pattern (none) → "^[a-z]+$"');
  });
});
