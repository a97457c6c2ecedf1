// @hey-api/openapi-ts (client-fetch): every read operation, a 404 and a 422, one export per format.
import { randomUUID } from 'node:crypto';
import { client } from '../hey-api/client.gen.js';
import { exportAnswers, exportAnswersNdjson, getPromptAnalytics, listPrompts } from '../hey-api/sdk.gen.js';
import { readEveryOperation, report } from './read-every-operation.js';

const baseUrl = process.env.WORKSPACE_API_URL!;
const apiKey = process.env.WORKSPACE_API_KEY!;
// @hey-api's documented way to authenticate: `auth` answers the token for each security scheme the
// generated operations declare (the contract's BearerAuth and ApiKeyHeader carry the same key).
client.setConfig({ baseUrl, auth: () => apiKey });

const called = await readEveryOperation(baseUrl, async (path, pathParams) => {
  // The generic call: any path of the contract, with the security the operations declare.
  // From 0.99 `response` is absent when the request failed before any answer (status 0 here).
  const { data, error, response } = await client.get({ url: path, path: pathParams, security: [{ scheme: 'bearer', type: 'http' }] });
  return { status: response?.status ?? 0, body: data ?? error };
});

const errors: string[] = [];
const missing = await getPromptAnalytics({ path: { prompt: randomUUID() } });
if (missing.error) errors.push(`getPromptAnalytics ${missing.response?.status} code ${missing.error.code}`);
const invalid = await listPrompts({ query: { limit: 0 } });
if (invalid.error?.code === 4220) errors.push(`listPrompts ${invalid.response?.status} code ${invalid.error.code} ${invalid.error.data.errors.map((e) => `${e.in}.${e.name}`).join(',')}`);

const csv = await exportAnswers({ query: { range: '7d' }, parseAs: 'text' });
const ndjson = await exportAnswersNdjson({ query: { range: '7d' }, parseAs: 'text' });
report('@hey-api/openapi-ts', called, errors, [
  `exportAnswers ${csv.response?.headers.get('content-type')} ${String(csv.data).split('\r\n').length} lines`,
  `exportAnswersNdjson ${ndjson.response?.headers.get('content-type')} ${String(ndjson.data).trim().split('\n').length} lines`,
]);
