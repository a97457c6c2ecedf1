import { all, reaches, status, type Expectation } from './expectations.js';
import type { OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';
import { fillPath, type ReadyRead } from './read-cases.js';
import type { RunContext } from './run-context.js';

/** Headers that differ between two answers by nature: when they were made, and how much of the limit was left. */
const PER_ANSWER_HEADERS = new Set(['ratelimit', 'date', 'x-request-id']);

/** A tag no answer carries (weak, as the service's are). */
const FOREIGN_TAG = 'W/"contract-test-no-such-tag"';

function documents(op: Operation, statusCode: number): boolean {
  return op.responseKeys.includes(String(statusCode));
}

function plain(read: ReadyRead, overrides: Partial<OutgoingRequest> = {}): OutgoingRequest {
  return { method: read.op.method, path: fillPath(read.op.path, read.pathValues[0]!), query: [], credential: read.credential, ...overrides };
}

const bodiless: Expectation = (response) => (response.text === '' ? [] : [`a ${response.status} carries a body of ${response.text.length} characters; it must have none`]);

/**
 * Conditional reads of an operation that documents 304: its `ETag` sent back as `If-None-Match`
 * answers 304 with the same tag and no body; a tag that does not match answers the full 2xx.
 */
export async function checkConditional(ctx: RunContext, read: ReadyRead): Promise<void> {
  const { op } = read;
  if (!documents(op, 304)) return;
  const first = await ctx.exchange(op, 'a read to take its ETag', plain(read), reaches(op));
  const tag = first?.headers.get('etag');
  if (!first || first.status >= 300) return;
  if (!tag) {
    ctx.skip(op, 'If-None-Match → 304', 'the read answered no ETag');
    return;
  }
  const sameTag: Expectation = (response) => {
    const again = response.headers.get('etag');
    return response.status !== 304 || again === tag ? [] : [`the 304 carries ETag ${JSON.stringify(again)}, not the ${JSON.stringify(tag)} it was sent`];
  };
  await ctx.exchange(op, 'If-None-Match with its ETag → 304, same tag, no body',
    plain(read, { headers: { 'if-none-match': tag } }), all(status(304), sameTag, bodiless));
  await ctx.exchange(op, 'If-None-Match with a tag that does not match → the full answer',
    plain(read, { headers: { 'if-none-match': FOREIGN_TAG } }), reaches(op));
}

/**
 * A HEAD against its GET on the same path and values: the same status, every header the GET's
 * answer documents with the same value (except those that differ per answer: `RateLimit`, `Date`,
 * `X-Request-Id`), and no body.
 */
export async function checkHeadMatchesGet(ctx: RunContext, head: ReadyRead, get: ReadyRead): Promise<void> {
  const values = head.pathValues[0]!;
  const request = (read: ReadyRead): OutgoingRequest => ({ method: read.op.method, path: fillPath(read.op.path, values), query: [], credential: head.credential });
  const got = await ctx.exchange(get.op, 'the GET a HEAD is compared with', request(get), reaches(get.op));
  if (!got) return;
  const sameAsGet: Expectation = (response) => {
    if (response.status !== got.status) return [`HEAD answered ${response.status}, its GET ${got.status}`];
    const documented = ctx.contract.response(get.op, got.status)?.headers.map((h) => h.name.toLowerCase()) ?? [];
    // An answer that documents no 304 may change with every request (the usage counts itself): its tag too.
    const perAnswer = (name: string) => PER_ANSWER_HEADERS.has(name) || (name === 'etag' && !documents(get.op, 304));
    return documented.filter((name) => !perAnswer(name) && name !== 'content-type')
      .concat('content-type')
      .flatMap((name) => {
        const [a, b] = [response.headers.get(name), got.headers.get(name)];
        return a === b ? [] : [`header ${name}: HEAD ${a === null ? 'omits it' : JSON.stringify(a)}, GET ${b === null ? 'omits it' : JSON.stringify(b)}`];
      });
  };
  await ctx.exchange(head.op, 'HEAD → the GET\'s status and headers, no body', request(head), all(sameAsGet, bodiless));
}

/** The GET on the same path as a HEAD, when the run reached it. */
export function getTwin(head: ReadyRead, ready: readonly ReadyRead[]): ReadyRead | undefined {
  return ready.find((r) => r.op.method === 'GET' && r.op.path === head.op.path);
}

