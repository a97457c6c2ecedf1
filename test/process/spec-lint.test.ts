import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkHouseRules } from '../../scripts/spec-house-rules.mjs';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';

// The spec quality gate (`npm run spec:lint`) on copies of our contract, each break planted in a
// file of its own so that the gate's report attributes each finding: it must name every break, in
// the file or on the operation where it was planted, and nothing else. `npm test` runs the gate on
// the contract itself first (scripts/gates.mjs).
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch: string[] = [];

type Doc = Record<string, any>;

function lint(specs: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/spec-lint.mjs', ...specs], { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
}

/** The gate's report on one file of a run over several: from its `── FILE` line to its verdict line. */
function reportOn(output: string, spec: string): string {
  const start = output.indexOf(`── ${spec}\n`);
  if (start < 0) return '';
  const verdict = /^(✓|❌) .*$/m.exec(output.slice(start));
  return verdict ? output.slice(start, start + verdict.index + verdict[0].length) : output.slice(start);
}

/** A break planted in one file of openapi/ (ROOT: the root document). */
interface Case {
  name: string;
  /** What the gate says about the file, or about the operations or schema it holds. */
  expected: RegExp;
  file: string;
  edit: (doc: Doc) => void;
}

/** The root file of a copy, whatever brokenCopy renamed it. */
const ROOT = 'root';
const ME = 'paths/api_v1_me.yaml';
const WORKSPACE = 'paths/api_v1_workspace.yaml';
const PLAN = 'paths/api_v1_workspace_plan.yaml';
const USAGE = 'paths/api_v1_workspace_usage.yaml';
const SETUP = 'paths/api_v1_visibility_setup.yaml';
const COMPETITORS = 'paths/api_v1_visibility_competitors.yaml';
const PERSONAS = 'paths/api_v1_iq_personas.yaml';
const PRODUCTS = 'paths/api_v1_iq_products.yaml';
const IDEAS = 'paths/api_v1_content_ideas.yaml';
const MEMBERS = 'paths/api_workspace_{workspace_id}_members.yaml';

/**
 * A copy of openapi/ with each case's break applied to its file (a different one for each case);
 * returns the root file of the copy, renamed `name.yaml` (the gate checks several files in one
 * run when their names differ).
 */
function brokenCopy(name: string, cases: Case[]): string {
  const files = cases.map((c) => c.file);
  if (new Set(files).size !== files.length) throw new Error(`${name}: two cases break the same file, so their findings could not be told apart`);
  const dir = mkdtempSync(path.join(tmpdir(), 'spec-lint-case-'));
  scratch.push(dir);
  cpSync(path.join(root, 'openapi'), path.join(dir, 'openapi'), { recursive: true });
  renameSync(path.join(dir, 'openapi', 'openapi.yaml'), path.join(dir, 'openapi', `${name}.yaml`));
  for (const c of cases) {
    const file = path.join(dir, 'openapi', c.file === ROOT ? `${name}.yaml` : c.file);
    const doc = parse(readFileSync(file, 'utf8')) as Doc;
    c.edit(doc);
    writeFileSync(file, stringify(doc));
  }
  return path.join(dir, 'openapi', `${name}.yaml`);
}

// The copies: one with what redocly's lint reports (its rules, ours in redocly.yaml, and the
// derivation plugin's), one with what only the house rules over the bundle report.
const copies: Array<{ name: string; cases: Case[] }> = [
  {
    name: 'lint-rules',
    cases: [
      {
        name: 'a parameter without a description',
        expected: /Every parameter needs a description/,
        file: ME,
        edit: (d) => { d.get.parameters = [{ name: 'verbose', in: 'query', schema: { type: 'boolean' } }]; },
      },
      {
        name: 'a head operation',
        expected: /a `head` operation: the service answers HEAD for every GET/,
        file: PLAN,
        edit: (d) => {
          d.head = { operationId: 'headWorkspacePlan', summary: 'Headers only.', description: 'The GET without its body.', tags: d.get.tags, security: d.get.security, responses: { 200: { description: 'The headers.' } } };
        },
      },
      {
        name: 'a standard refusal copied into a path file',
        expected: /response 401 is derived from the operation's security and markers/,
        file: USAGE,
        edit: (d) => { d.get.responses['401'] = { $ref: '../components/responses/Unauthorized.yaml' }; },
      },
      {
        name: 'a standard header copied into a path file',
        expected: /header ETag is derived for every GET's 200/,
        file: SETUP,
        edit: (d) => { d.get.responses['200'].headers = { ETag: { $ref: '../components/headers/ETag.yaml' } }; },
      },
      {
        name: 'x-conditional other than false',
        expected: /x-conditional is only `false`, on a GET that never answers 304/,
        file: COMPETITORS,
        edit: (d) => { d.get['x-conditional'] = true; },
      },
      {
        name: 'a duplicate operationId',
        expected: /operation-operationId-unique/,
        file: WORKSPACE,
        edit: (d) => { d.get.operationId = 'getMe'; },
      },
      {
        name: 'an unused component',
        expected: /no-unused-components/,
        file: ROOT,
        edit: (d) => { d.components.schemas = { UnusedThing: { type: 'string', description: 'Nothing refers to this schema.' } }; },
      },
      {
        name: 'an operation without a summary',
        expected: /operation-summary/,
        file: PRODUCTS,
        edit: (d) => { delete d.get.summary; },
      },
      {
        name: 'an operation without a description',
        expected: /operation-description/,
        file: PERSONAS,
        edit: (d) => { delete d.get.description; },
      },
      {
        name: 'an operation without a tag',
        expected: /operation-tags/,
        file: IDEAS,
        edit: (d) => { delete d.get.tags; },
      },
    ],
  },
  {
    name: 'house-rules',
    cases: [
      {
        name: 'a schema property without a description',
        expected: /\.name: property has no description/,
        file: 'components/schemas/ApiKey.yaml',
        edit: (d) => { delete d.properties.name.description; },
      },
      {
        name: 'an inline anonymous object schema',
        expected: /200 application\/json: inline object schema/,
        file: ME,
        edit: (d) => {
          d.get.responses['200'].content['application/json'].schema = {
            type: 'object',
            description: 'The envelope, written inline instead of as a named schema.',
            properties: {
              code: { type: 'integer', description: 'The service code.' },
              messages: { type: 'string', description: 'What happened.' },
              data: { $ref: '../components/schemas/Me.yaml' },
            },
          };
        },
      },
      {
        // The derivation adds headers only to a response written in the path file: a GET's 200 that
        // refers to a shared response instead ends up without ETag, and the house rules see it.
        name: 'a GET whose 200 has no ETag',
        expected: /200: has no ETag header/,
        file: WORKSPACE,
        edit: (d) => { d.get.responses['200'] = { $ref: '../components/responses/NotFound.yaml' }; },
      },
      {
        name: 'a GET whose 200 has no body schema',
        expected: /200: has no body schema/,
        file: PLAN,
        edit: (d) => { delete d.get.responses['200'].content; },
      },
      {
        // Without `security` at all, redocly's security-defined fails it; an empty list is the house rule's.
        name: 'an operation that declares an empty security requirement',
        expected: /: declares no security requirement/,
        file: SETUP,
        edit: (d) => { d.get.security = []; },
      },
      {
        name: 'an administration operation that does not say what the audit log records of it',
        expected: /an administration operation states what the audit log records of it in `x-audit/,
        file: MEMBERS,
        edit: (d) => { delete d.get['x-audit']; },
      },
    ],
  },
];
const cases = copies.flatMap((copy, i) => copy.cases.map((c) => ({ ...c, copy: i })));

// Redocly's stylish format prints one `line:col  error|warning  rule  message` line per finding,
// under a `FILE:` line naming the file it is in; the house rules' findings name the operation
// (`GET /api/v1/me ...`) or schema (`components.schemas.ApiKey...`) they are about.
const REDOCLY_FINDING = /^\s+\d+:\d+\s+(error|warning)\s/;
const paths = (parse(readFileSync(path.join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Doc).paths as Record<string, { $ref: string }>;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The findings of a copy's report (on `spec`) about what one file of it holds. */
function findingsAbout(report: string, spec: string, file: string): string[] {
  const own = file === ROOT ? path.basename(spec) : file;
  const url = Object.keys(paths).find((p) => paths[p]!.$ref === file);
  const schema = /^components\/schemas\/(.+)\.yaml$/.exec(file)?.[1];
  const subject = url ? new RegExp(`^${escape(spec)}: (GET|HEAD) ${escape(url)}[ :]`)
    : schema ? new RegExp(`^${escape(spec)}: components\\.schemas\\.${escape(schema)}\\.`) : undefined;
  const found: string[] = [];
  let inFile = false;
  for (const line of report.split('\n')) {
    if (REDOCLY_FINDING.test(line)) {
      if (inFile) found.push(line);
    } else {
      inFile = /^\S.*:$/.test(line) && line.endsWith(`/openapi/${own}:`);
      if (subject?.test(line)) found.push(line);
    }
  }
  return found;
}

describe('spec quality gate (scripts/spec-lint.mjs)', () => {
  let broken: { code: number; output: string };
  let specs: string[];

  beforeAll(async () => {
    specs = copies.map((copy) => brokenCopy(copy.name, copy.cases));
    // The gate as `npm run spec:lint FILE...` runs it, once over every broken copy.
    broken = await lint(specs);
  }, 180_000);

  afterAll(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it.each(cases)('fails on $name', ({ expected, file, copy }) => {
    expect(broken.code).not.toBe(0);
    const report = reportOn(broken.output, specs[copy]!);
    expect(report, broken.output).toMatch(/^❌ .*: \d+ finding\(s\)$/m);
    expect(findingsAbout(report, specs[copy]!, file).join('\n'), report).toMatch(expected);
  });

  it('finds no head operation in openapi/paths/ (the service answers HEAD for every GET, as x-head-for-every-get says)', () => {
    const dir = path.join(root, 'openapi', 'paths');
    const withHead = readdirSync(dir).filter((name) => Object.hasOwn(parse(readFileSync(path.join(dir, name), 'utf8')) as Doc, 'head'));
    expect(withHead).toEqual([]);
  });

  it('refuses, before any tool runs, files whose names repeat (their bundles would overwrite each other)', async () => {
    const { code, output } = await lint([specs[0]!, path.join(root, 'openapi', `${path.basename(specs[0]!)}`)]);
    expect(code).toBe(2);
    expect(output).toMatch(/the files named must have different names; these repeat one: .*lint-rules\.yaml/);
  });

  it('reports on each file of a run over several, and only what that file breaks, each where it was planted', () => {
    for (const [k, copy] of copies.entries()) {
      const report = reportOn(broken.output, specs[k]!);
      // No other copy's break shows in this copy's report.
      for (const other of cases.filter((c) => c.copy !== k)) {
        if (!copy.cases.some((c) => other.expected.test(c.name))) expect(report, `${copy.name} reports ${other.name}`).not.toMatch(other.expected);
      }
      // Every case breaks one thing: no other case's expected finding shows where it was planted.
      for (const c of copy.cases) {
        const about = findingsAbout(report, specs[k]!, c.file).join('\n');
        for (const other of cases) {
          if (other.name !== c.name && !other.expected.test(c.name)) expect(about, `${c.name} reports ${other.name}`).not.toMatch(other.expected);
        }
      }
      // And every finding of the report is about a file one of its cases broke.
      const attributed = new Set(copy.cases.flatMap((c) => findingsAbout(report, specs[k]!, c.file)));
      const findings = report.split('\n').filter((line) => REDOCLY_FINDING.test(line) || line.startsWith(`${specs[k]}: `) || line.startsWith('swagger-parser:'));
      expect(findings.filter((line) => !attributed.has(line)), report).toEqual([]);
    }
  });
});

describe('house rules on permissions, reads and audit markers (scripts/spec-house-rules.mjs, over the bundled contract)', () => {
  /** The bundled contract with one operation changed. */
  const problemsWith = (path: string, change: (op: Doc) => void, method = 'get'): string[] => {
    const doc = structuredClone(loadOpenApiDocument()) as Doc;
    change(doc.paths[path][method]);
    return checkHouseRules(doc);
  };
  const ideas = '/api/v1/content/ideas';

  it('finds nothing on the bundled contract', () => {
    expect(checkHouseRules(loadOpenApiDocument() as Doc)).toEqual([]);
  });

  it('fails on an NDJSON download\'s example whose line does not parse or does not fit x-item-schema', () => {
    const doc = structuredClone(loadOpenApiDocument()) as Doc;
    const media = doc.paths['/api/v1/visibility/exports/daily-rates.ndjson'].get.responses['200'].content['application/x-ndjson'];
    media.example = `${(media.example as string).replace('"snapshots":14', '"snapshots":"14"')}{oops\n`;
    expect(checkHouseRules(doc)).toEqual([
      'GET /api/v1/visibility/exports/daily-rates.ndjson 200 application/x-ndjson: example line 1: line/snapshots must be integer',
      'GET /api/v1/visibility/exports/daily-rates.ndjson 200 application/x-ndjson: example line 3 is not one JSON text',
    ]);
  });

  it('fails on a HEAD operation in the bundle, and on a document that does not say that every GET answers HEAD', () => {
    const doc = structuredClone(loadOpenApiDocument()) as Doc;
    doc.paths[ideas].head = { operationId: 'headListIdeas', security: doc.paths[ideas].get.security, responses: {} };
    delete doc['x-head-for-every-get'];
    expect(checkHouseRules(doc)).toEqual([
      'the document does not say `x-head-for-every-get: {enabled: true, description}`: every GET answers HEAD',
      'HEAD /api/v1/content/ideas: a HEAD operation; the service answers HEAD for every GET, as `x-head-for-every-get` says',
    ]);
  });

  it.each([
    ['an empty security list', (op: Doc) => { op.security = []; }, 'GET /api/v1/content/ideas: declares no security requirement'],
    ['a scope the Scope schema does not list', (op: Doc) => { op.security = [{ BearerAuth: ['content:write'] }, { ApiKeyHeader: ['content:write'] }]; },
      'GET /api/v1/content/ideas: BearerAuth lists content:write, which is not a Scope'],
    ['two API-key schemes asking for different scopes', (op: Doc) => { op.security = [{ BearerAuth: ['content:read'] }, { ApiKeyHeader: [] }]; },
      'GET /api/v1/content/ideas: its api_key schemes list different requirements'],
    ['two schemes in one requirement', (op: Doc) => { op.security = [{ BearerAuth: ['content:read'], ApiKeyHeader: ['content:read'] }]; },
      'GET /api/v1/content/ideas: each security requirement names exactly one scheme (found 2)'],
    ['a role MemberRole does not list', (op: Doc) => { op.security = [{ MemberToken: ['admin'] }]; },
      'GET /api/v1/content/ideas: MemberToken lists admin, which is not a MemberRole'],
    ['a description naming a scope the security does not require', (op: Doc) => { op.security = [{ BearerAuth: ['iq:read'] }, { ApiKeyHeader: ['iq:read'] }]; },
      'GET /api/v1/content/ideas: the description names `content:read`, which its security does not require'],
    ['x-subscription-exempt on an operation no API key reaches', (op: Doc) => { op.security = [{ MemberToken: [] }]; op['x-subscription-exempt'] = true; },
      'GET /api/v1/content/ideas: x-subscription-exempt is only `true`, on an operation that takes API keys'],
    ['x-absent-state naming a status the read does not document', (op: Doc) => { op['x-absent-state'] = 404; },
      'GET /api/v1/content/ideas: x-absent-state must be a 4xx status the read documents (found 404)'],
    ['a link giving its target no value for a path parameter', (op: Doc) => { op.responses['200'].links.getIdea.parameters = {}; },
      'GET /api/v1/content/ideas 200 link getIdea: gives no value for {idea}'],
    ['a link expression the checker cannot resolve', (op: Doc) => { op.responses['200'].links.getIdea.parameters = { idea: '$request.path.idea' }; },
      'GET /api/v1/content/ideas 200 link getIdea: idea: $request.path.idea is neither $response.body#/… nor $request.path.<a parameter of /api/v1/content/ideas>'],
  ])('fails on %s', (_name, change, expected) => {
    expect(problemsWith(ideas, change)).toContainEqual(expect.stringContaining(expected));
  });

  const webhook = '/api/workspace/{workspace_id}/webhooks/{webhook_id}';
  it.each([
    ['an administration operation without x-audit', webhook, (op: Doc) => { delete op['x-audit']; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: an administration operation states what the audit log records of it in `x-audit: {action, object, object-id}`'],
    ['x-audit on a read-API operation', ideas, (op: Doc) => { op['x-audit'] = { action: 'webhooks.listed' }; },
      'GET /api/v1/content/ideas: x-audit is for administration operations (/api/workspace/); the audit log records nothing of the read API'],
    ['an x-audit that is not an object', webhook, (op: Doc) => { op['x-audit'] = 'webhook.updated'; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit is an object with action, object, object-id'],
    ['an x-audit key of its own', webhook, (op: Doc) => { op['x-audit'].objectId = 'webhook_id'; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit has no objectId; it has action, object, object-id'],
    ['an action AuditAction does not list', webhook, (op: Doc) => { op['x-audit'].action = 'webhook.renamed'; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit action "webhook.renamed" is not an AuditAction'],
    ['an object type AuditObjectType does not list', webhook, (op: Doc) => { op['x-audit'].object = 'hook'; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit object "hook" is not an AuditObjectType'],
    ['an object-id that is not a path parameter of the operation', webhook, (op: Doc) => { op['x-audit']['object-id'] = 'key_id'; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit object-id "key_id" is not a path parameter of the operation'],
    ['an object-id without an object', webhook, (op: Doc) => { delete op['x-audit'].object; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit object-id names the id of an object, but x-audit names no object'],
    ['an object without object-id on an operation that creates nothing', webhook, (op: Doc) => { delete op['x-audit']['object-id']; },
      'PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit object without object-id reads the id of a created resource from the answer, but the operation creates nothing (no 201)'],
  ])('fails on %s', (_name, path, change, expected) => {
    expect(problemsWith(path, change, path === webhook ? 'patch' : 'get')).toContainEqual(expect.stringContaining(expected));
  });

  it.each([
    ['a GET whose 200 lost its ETag', 'get', (op: Doc) => { delete op.responses['200'].headers.ETag; }, 'GET /api/v1/content/ideas 200: has no ETag header'],
    ['a GET whose 200 lost its Vary', 'get', (op: Doc) => { delete op.responses['200'].headers.Vary; }, 'GET /api/v1/content/ideas 200: has no Vary header'],
    ['a GET without 304 or x-conditional: false', 'get', (op: Doc) => { delete op.responses['304']; },
      'GET /api/v1/content/ideas: has no 304 (say `x-conditional: false` if it never answers one)'],
  ])('fails on %s', (_name, method, change, expected) => {
    expect(problemsWith(ideas, change, method)).toContainEqual(expect.stringContaining(expected));
  });
});

describe('house rules on how a write runs (scripts/spec-house-rules.mjs, over the bundled contract)', () => {
  /** The bundled contract with one operation changed: only what the change breaks is reported. */
  const problemsWith = (path: string, method: string, change: (op: Doc) => void): string[] => {
    const doc = structuredClone(loadOpenApiDocument()) as Doc;
    change(doc.paths[path][method]);
    return checkHouseRules(doc);
  };
  const rotate = '/api/workspace/{workspace_id}/webhooks/{webhook_id}/rotate-secret';
  const test = '/api/workspace/{workspace_id}/webhooks/{webhook_id}/test';
  const withoutIdempotencyKey = (op: Doc) => {
    op.parameters = (op.parameters as Array<{ $ref?: string }>).filter((p) => p.$ref !== '#/components/parameters/IdempotencyKey');
  };

  it.each([
    ['an administration POST without an Idempotency-Key header', rotate, 'post', withoutIdempotencyKey,
      `POST ${rotate}: an administration POST takes an Idempotency-Key header (components/parameters/IdempotencyKey.yaml)`],
    ['x-acts-without-writing other than true', test, 'post', (op: Doc) => { op['x-acts-without-writing'] = 'yes'; },
      `POST ${test}: x-acts-without-writing is only \`true\`, on an operation that takes an Idempotency-Key`],
    ['x-acts-without-writing on an operation without an Idempotency-Key header', '/api/v1/content/ideas', 'get', (op: Doc) => { op['x-acts-without-writing'] = true; },
      'GET /api/v1/content/ideas: x-acts-without-writing is only `true`, on an operation that takes an Idempotency-Key'],
  ])('fails on %s', (_name, path, method, change, expected) => {
    expect(problemsWith(path, method, change)).toEqual([expected]);
  });
});
