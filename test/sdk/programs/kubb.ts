// Kubb (axios client): every read operation, a 404 and a 422, one export per format.
import { randomUUID } from 'node:crypto';
import { fetch as client, setConfig, type ResponseErrorConfig } from '../kubb/.kubb/fetch.ts';
import { exportAnswers, exportAnswersNdjson, getPromptAnalytics, listPrompts, type GetPromptAnalytics404, type ListPrompts422 } from '../kubb/index.ts';
import { readEveryOperation, report } from './read-every-operation.js';

const baseUrl = process.env.WORKSPACE_API_URL!;
// Kubb's documented way to set the address and the credential: the bundled client's setConfig.
setConfig({ baseURL: baseUrl, headers: { Authorization: `Bearer ${process.env.WORKSPACE_API_KEY!}` } });

const called = await readEveryOperation(baseUrl, async (path, pathParams) => {
  // The generic call: the client every generated function calls.
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
  const { status, data } = await client<unknown>({ method: 'GET', url });
  return { status, body: data };
});

// Kubb's client throws on an error status; its error type carries the operation's error bodies.
async function failure<E>(call: () => Promise<unknown>): Promise<ResponseErrorConfig<E>> {
  try {
    await call();
  } catch (err) {
    return err as ResponseErrorConfig<E>;
  }
  throw new Error('expected an error answer');
}
const errors: string[] = [];
const missing = await failure<GetPromptAnalytics404>(() => getPromptAnalytics(randomUUID()));
errors.push(`getPromptAnalytics ${missing.response?.status} code ${missing.response?.data.code}`);
const invalid = await failure<ListPrompts422>(() => listPrompts({ limit: 0 }));
errors.push(`listPrompts ${invalid.response?.status} code ${invalid.response?.data.code} ${invalid.response?.data.data.errors.map((e) => `${e.in}.${e.name}`).join(',')}`);

// Files: axios reads the body as text when asked (`responseType`), per call.
const csv = await exportAnswers({ range: '7d' }, { responseType: 'text' });
const ndjson = String(await exportAnswersNdjson({ range: '7d' }, { responseType: 'text' }));
report('kubb', called, errors, [
  `exportAnswers ${csv.split('\r\n').length} lines`,
  `exportAnswersNdjson ${ndjson.trim().split('\n').length} lines`,
]);
