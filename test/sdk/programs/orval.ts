// orval (fetch client, with the custom fetch its documentation describes): every read operation,
// a 404 and a 422, one export per format.
import { randomUUID } from 'node:crypto';
import { configure, customFetch } from '../generators/orval-fetch.js';
import { exportAnswers, exportAnswersNdjson, getPromptAnalytics, listPrompts } from '../orval/api.js';
import { readEveryOperation, report } from './read-every-operation.js';

const baseUrl = process.env.WORKSPACE_API_URL!;
// The credential and the address go to the custom fetch every generated function calls.
configure({ baseUrl, apiKey: process.env.WORKSPACE_API_KEY! });

const called = await readEveryOperation(baseUrl, async (path, pathParams) => {
  // The generic call: the custom fetch, with the path filled in.
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
  const { status, data } = await customFetch<{ status: number; data: unknown }>(url, { method: 'GET' });
  return { status, body: data };
});

const errors: string[] = [];
const missing = await getPromptAnalytics(randomUUID());
if (missing.status === 404) errors.push(`getPromptAnalytics ${missing.status} code ${missing.data.code}`);
const invalid = await listPrompts({ limit: 0 });
if (invalid.status === 422) errors.push(`listPrompts ${invalid.status} code ${invalid.data.code} ${invalid.data.data.errors.map((e) => `${e.in}.${e.name}`).join(',')}`);

const csv = await exportAnswers({ range: '7d' });
const ndjson = await exportAnswersNdjson({ range: '7d' });
report('orval', called, errors, [
  `exportAnswers ${csv.headers.get('content-type')} ${csv.status === 200 ? csv.data.split('\r\n').length : 0} lines`,
  `exportAnswersNdjson ${ndjson.headers.get('content-type')} ${ndjson.status === 200 ? (await ndjson.stream.text()).trim().split('\n').length : 0} lines`,
]);
