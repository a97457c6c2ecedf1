// swagger-typescript-api (fetch): every read operation, a 404 and a 422, one export per format.
import { randomUUID } from 'node:crypto';
import { Api, type HttpResponse, type NotFoundErrorEnvelope, type ValidationErrorEnvelope } from '../swagger-typescript-api/api.js';
import { readEveryOperation, report } from './read-every-operation.js';

const baseUrl = process.env.WORKSPACE_API_URL!;
// swagger-typescript-api's documented way to authenticate: a securityWorker that turns the
// security data into headers for every operation the contract marks as secured.
const api = new Api<string>({ baseUrl, securityWorker: (key) => (key ? { headers: { Authorization: `Bearer ${key}` } } : {}) });
api.setSecurityData(process.env.WORKSPACE_API_KEY!);

const called = await readEveryOperation(baseUrl, async (path, pathParams) => {
  // The generic call: the HttpClient's request, which every generated method calls.
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
  const res = await api.request<unknown, unknown>({ path: url, method: 'GET', secure: true, format: 'json' });
  return { status: res.status, body: res.data };
});

// The client throws its HttpResponse on an error status, with the error body in `error`.
async function failure<E>(call: () => Promise<unknown>): Promise<HttpResponse<unknown, E>> {
  try {
    await call();
  } catch (err) {
    return err as HttpResponse<unknown, E>;
  }
  throw new Error('expected an error answer');
}
const errors: string[] = [];
const missing = await failure<NotFoundErrorEnvelope>(() => api.api.getPromptAnalytics(randomUUID()));
errors.push(`getPromptAnalytics ${missing.status} code ${missing.error.code}`);
const invalid = await failure<ValidationErrorEnvelope>(() => api.api.listPrompts({ limit: 0 }));
errors.push(`listPrompts ${invalid.status} code ${invalid.error.code} ${invalid.error.data.errors.map((e) => `${e.in}.${e.name}`).join(',')}`);

// Files: the client reads a body only in the format asked for (`format: 'text'`), per call.
const csv = await api.api.exportAnswers({ range: '7d' }, { format: 'text' });
const ndjson = await api.api.exportAnswersNdjson({ range: '7d' }, { format: 'text' });
report('swagger-typescript-api', called, errors, [
  `exportAnswers ${csv.headers.get('content-type')} ${String(csv.data).split('\r\n').length} lines`,
  `exportAnswersNdjson ${ndjson.headers.get('content-type')} ${String(ndjson.data).trim().split('\n').length} lines`,
]);
