// openapi-typescript + openapi-fetch: every read operation, a 404 and a 422, one export per format.
import { randomUUID } from 'node:crypto';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../openapi-fetch/schema.js';
import { readEveryOperation, report } from './read-every-operation.js';

const baseUrl = process.env.WORKSPACE_API_URL!;
const apiKey = process.env.WORKSPACE_API_KEY!;
// openapi-fetch's documented way to authenticate: a middleware that sets the header on each request.
const auth: Middleware = {
  onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${apiKey}`);
    return request;
  },
};
const client = createClient<paths>({ baseUrl });
client.use(auth);

const called = await readEveryOperation(baseUrl, async (path, pathParams) => {
  // The generic call: any path of the contract, by its template.
  const { data, error, response } = await client.request('get', path as never, { params: { path: pathParams } } as never);
  return { status: response.status, body: data ?? error };
});

const errors: string[] = [];
const missing = await client.GET('/api/v1/visibility/prompts/{prompt}', { params: { path: { prompt: randomUUID() } } });
if (missing.error) errors.push(`getPromptAnalytics ${missing.response.status} code ${missing.error.code}`);
const invalid = await client.GET('/api/v1/visibility/prompts', { params: { query: { limit: 0 } } });
if (invalid.error?.code === 4220) errors.push(`listPrompts ${invalid.response.status} code ${invalid.error.code} ${invalid.error.data.errors.map((e) => `${e.in}.${e.name}`).join(',')}`);

const csv = await client.GET('/api/v1/visibility/exports/answers', { params: { query: { range: '7d' } }, parseAs: 'text' });
const ndjson = await client.GET('/api/v1/visibility/exports/answers.ndjson', { params: { query: { range: '7d' } }, parseAs: 'text' });
report('openapi-fetch', called, errors, [
  `exportAnswers ${csv.response.headers.get('content-type')} ${csv.data?.split('\r\n').length} lines`,
  `exportAnswersNdjson ${ndjson.response.headers.get('content-type')} ${ndjson.data?.trim().split('\n').length} lines`,
]);
