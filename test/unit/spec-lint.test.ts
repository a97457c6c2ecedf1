import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkHouseRules } from '../../scripts/spec-house-rules.mjs';
import { loadOpenApiDocument } from '../../src/contract.js';

// The spec quality gate (`npm run spec:lint`) run on our contract and on copies of it, each broken
// in exactly one way: the gate must name that break.
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch: string[] = [];

type Doc = Record<string, any>;

function lint(specs: string[] = []): Promise<{ code: number; output: string }> {
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

/**
 * A fresh copy of openapi/ with `edit` applied; returns the root file of the copy, renamed
 * `name.yaml` (the gate checks several files in one run when their names differ).
 */
function brokenCopy(name: string, edit: (file: (name: string, change: (doc: Doc) => void) => void) => void): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'spec-lint-case-'));
  scratch.push(dir);
  cpSync(path.join(root, 'openapi'), path.join(dir, 'openapi'), { recursive: true });
  renameSync(path.join(dir, 'openapi', 'openapi.yaml'), path.join(dir, 'openapi', `${name}.yaml`));
  edit((fileName, change) => {
    const file = path.join(dir, 'openapi', fileName === ROOT ? `${name}.yaml` : fileName);
    const doc = parse(readFileSync(file, 'utf8')) as Doc;
    change(doc);
    writeFileSync(file, stringify(doc));
  });
  return path.join(dir, 'openapi', `${name}.yaml`);
}

const ME = 'paths/api_v1_me.yaml';
/** The root file of a copy, whatever brokenCopy renamed it. */
const ROOT = 'root';

const cases: Array<{ name: string; expected: RegExp; edit: Parameters<typeof brokenCopy>[1] }> = [
  {
    name: 'a schema property without a description',
    expected: /components\.schemas\.ApiKey\.name: property has no description/,
    edit: (file) => file('components/schemas/ApiKey.yaml', (d) => { delete d.properties.name.description; }),
  },
  {
    name: 'a parameter without a description',
    expected: /Every parameter needs a description/,
    edit: (file) => file(ME, (d) => { d.get.parameters = [{ name: 'verbose', in: 'query', schema: { type: 'boolean' } }]; }),
  },
  {
    name: 'an inline anonymous object schema',
    expected: /GET \/api\/v1\/me 200 application\/json: inline object schema/,
    edit: (file) => file(ME, (d) => {
      d.get.responses['200'].content['application/json'].schema = {
        type: 'object',
        description: 'The envelope, written inline instead of as a named schema.',
        properties: {
          code: { type: 'integer', description: 'The service code.' },
          messages: { type: 'string', description: 'What happened.' },
          data: { $ref: '../components/schemas/Me.yaml' },
        },
      };
    }),
  },
  {
    name: 'a hand-written head operation',
    expected: /a hand-written `head` operation/,
    edit: (file) => file(ME, (d) => {
      d.head = { operationId: 'headMe', summary: 'Headers only.', description: 'The GET without its body.', tags: ['Key'], security: d.get.security, responses: { 200: { description: 'The headers.' } } };
    }),
  },
  {
    name: 'a standard refusal copied into a path file',
    expected: /response 401 is derived from the operation's security and markers/,
    edit: (file) => file(ME, (d) => { d.get.responses['401'] = { $ref: '../components/responses/Unauthorized.yaml' }; }),
  },
  {
    name: 'a standard header copied into a path file',
    expected: /header ETag is derived for every GET's 200/,
    edit: (file) => file(ME, (d) => { d.get.responses['200'].headers = { ETag: { $ref: '../components/headers/ETag.yaml' } }; }),
  },
  {
    // The derivation adds headers only to a response written in the path file: a GET's 200 that
    // refers to a shared response instead ends up without ETag, and the house rules see it.
    name: 'a GET whose 200 has no ETag',
    expected: /GET \/api\/v1\/me 200: has no ETag header/,
    edit: (file) => file(ME, (d) => { d.get.responses['200'] = { $ref: '../components/responses/NotFound.yaml' }; }),
  },
  {
    name: 'a GET whose 200 has no body schema',
    expected: /GET \/api\/v1\/me 200: has no body schema/,
    edit: (file) => file(ME, (d) => { delete d.get.responses['200'].content; }),
  },
  {
    name: 'x-conditional other than false',
    expected: /x-conditional is only `false`, on a GET that never answers 304/,
    edit: (file) => file(ME, (d) => { d.get['x-conditional'] = true; }),
  },
  {
    name: 'a duplicate operationId',
    expected: /operation-operationId-unique/,
    edit: (file) => file('paths/api_v1_workspace.yaml', (d) => { d.get.operationId = 'getMe'; }),
  },
  {
    name: 'an unused component',
    expected: /no-unused-components/,
    edit: (file) => file(ROOT, (d) => {
      d.components.schemas = { UnusedThing: { type: 'string', description: 'Nothing refers to this schema.' } };
    }),
  },
  {
    name: 'an operation without a summary',
    expected: /operation-summary/,
    edit: (file) => file(ME, (d) => { delete d.get.summary; }),
  },
  {
    name: 'an operation without a description',
    expected: /operation-description/,
    edit: (file) => file(ME, (d) => { delete d.get.description; }),
  },
  {
    name: 'an operation without a tag',
    expected: /operation-tags/,
    edit: (file) => file(ME, (d) => { delete d.get.tags; }),
  },
  {
    // Without `security` at all, redocly's security-defined fails it; an empty list is the house rule's.
    name: 'an operation that declares an empty security requirement',
    expected: /GET \/api\/v1\/me: declares no security requirement/,
    edit: (file) => file(ME, (d) => { d.get.security = []; }),
  },
];

// Redocly's stylish format prints one `line:col  error|warning  rule  message` line per finding.
const FINDING = /^\s*\d+:\d+\s+(error|warning)\s|\byou have \d+ warnings?\b/im;

describe('spec quality gate (scripts/spec-lint.mjs)', () => {
  let ours: { code: number; output: string };
  let broken: { code: number; output: string };
  let specs: string[];

  beforeAll(async () => {
    specs = cases.map((c, i) => brokenCopy(`case-${i + 1}`, c.edit));
    // The gate as `npm run spec:lint` runs it, and once over every broken copy.
    [ours, broken] = await Promise.all([lint(), lint(specs)]);
  }, 180_000);

  afterAll(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('passes on our OpenAPI and AsyncAPI documents with zero findings', () => {
    expect(ours.output).not.toMatch(FINDING);
    expect(ours.code, ours.output).toBe(0);
  });

  it.each(cases.map((c, i) => ({ ...c, i })))('fails on $name', ({ expected, i }) => {
    expect(broken.code).not.toBe(0);
    const report = reportOn(broken.output, specs[i]!);
    expect(report, broken.output).toMatch(/^❌ .*: \d+ finding\(s\)$/m);
    expect(report).toMatch(expected);
  });

  it('finds no hand-written head operation in openapi/paths/ (the bundle derives each from its GET)', () => {
    const dir = path.join(root, 'openapi', 'paths');
    const withHead = readdirSync(dir).filter((name) => Object.hasOwn(parse(readFileSync(path.join(dir, name), 'utf8')) as Doc, 'head'));
    expect(withHead).toEqual([]);
  });

  it('refuses, before any tool runs, files whose names repeat (their bundles would overwrite each other)', async () => {
    const { code, output } = await lint([specs[0]!, path.join(root, 'openapi', `${path.basename(specs[0]!)}`)]);
    expect(code).toBe(2);
    expect(output).toMatch(/the files named must have different names; these repeat one: .*case-1\.yaml/);
  });

  it('reports on each file of a run over several, and only what that file breaks', () => {
    // Every case breaks one thing: no other case's expected finding shows in its report.
    for (const [i, c] of cases.entries()) {
      const report = reportOn(broken.output, specs[i]!);
      for (const [j, other] of cases.entries()) {
        if (j !== i && !other.expected.test(c.name)) expect(report, `${c.name} reports ${other.name}`).not.toMatch(other.expected);
      }
    }
  });
});

describe('house rules on permissions and reads (scripts/spec-house-rules.mjs, over the bundled contract)', () => {
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

  it.each([
    ['a GET whose 200 lost its ETag', 'get', (op: Doc) => { delete op.responses['200'].headers.ETag; }, 'GET /api/v1/content/ideas 200: has no ETag header'],
    ['a GET whose 200 lost its Vary', 'get', (op: Doc) => { delete op.responses['200'].headers.Vary; }, 'GET /api/v1/content/ideas 200: has no Vary header'],
    ['a GET without 304 or x-conditional: false', 'get', (op: Doc) => { delete op.responses['304']; },
      'GET /api/v1/content/ideas: has no 304 (say `x-conditional: false` if it never answers one)'],
    ['a HEAD named otherwise than by the rule', 'head', (op: Doc) => { op.operationId = 'headGetIdeas'; },
      'HEAD /api/v1/content/ideas: operationId headGetIdeas is not headListIdeas'],
  ])('fails on %s', (_name, method, change, expected) => {
    expect(problemsWith(ideas, change, method)).toContainEqual(expect.stringContaining(expected));
  });
});
