import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { exchangeRaw } from '../../support/raw-http.js';
import { startTestServerForThisTest, type TestServer } from '../../support/test-server.js';

const serverWith = (publicBaseUrl?: string): Promise<TestServer> => startTestServerForThisTest({ http: { publicBaseUrl } });

/** GET /openapi.json with the given Host header (fetch may not set it), answering the `servers` list. */
function serversNamed(server: TestServer, host: string): Promise<unknown> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/openapi.json', headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve((JSON.parse(text) as { servers: unknown }).servers));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /openapi.json', () => {
  it('names the server the client reached, from its Host header, never a fixed loopback address', async () => {
    const server = await serverWith();
    expect(await serversNamed(server, 'api.example.test:8443')).toEqual([{ url: 'http://api.example.test:8443', description: 'This service' }]);
    expect(await serversNamed(server, '[::1]:3000')).toEqual([{ url: 'http://[::1]:3000', description: 'This service' }]);
  });

  it('when PUBLIC_BASE_URL is set, names it whatever the Host header says', async () => {
    const server = await serverWith('https://workspace-api.example.com/read');
    expect(await serversNamed(server, 'internal-node-7:3000')).toEqual([{ url: 'https://workspace-api.example.com/read', description: 'This service' }]);
  });

  it('when the Host header is not a host name, names the address and port the client connected to', async () => {
    const server = await serverWith();
    expect(await serversNamed(server, 'evil.test/"><script>')).toEqual([{ url: server.url, description: 'This service' }]);
  });

  it('over HTTP/1.0 without a Host header, names the address and port the client connected to, or PUBLIC_BASE_URL when set', async () => {
    const servedOver10 = async (server: TestServer) => {
      const res = await exchangeRaw(server.url, 'GET /openapi.json HTTP/1.0\r\n\r\n');
      return [res.status, (JSON.parse(res.body) as { servers: unknown }).servers];
    };
    const server = await serverWith();
    expect(new URL(server.url).port).not.toBe('3000');
    expect(await servedOver10(server)).toEqual([200, [{ url: server.url, description: 'This service' }]]);
    expect(await servedOver10(await serverWith('https://workspace-api.example.com'))).toEqual([200, [{ url: 'https://workspace-api.example.com', description: 'This service' }]]);
  });
});

describe('GET /asyncapi.json', () => {
  it('answers the bundled AsyncAPI document, the webhook events the reference links to', async () => {
    const server = await serverWith();
    const res = await fetch(`${server.url}/asyncapi.json`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(await res.json()).toEqual(JSON.parse(readFileSync(new URL('../../../generated/asyncapi.json', import.meta.url), 'utf8')));
  });
});

describe('GET /openapi/1.2.0.json', () => {
  it('answers the 1.2.0 contract as released, HEAD operations included, naming the server the client reached; /openapi.json is 2.0.0 without them', async () => {
    const server = await serverWith();
    const released = JSON.parse(readFileSync(new URL('../../../contract/superseded/openapi-1.2.0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const res = await fetch(`${server.url}/openapi/1.2.0.json`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    const served = await res.json() as { info: { version: string }; paths: Record<string, Record<string, { operationId?: string }>> };
    expect(served).toEqual({ ...released, servers: [{ url: server.url, description: 'This service' }] });
    expect([served.info.version, served.paths['/api/v1/visibility/prompts']?.head?.operationId]).toEqual(['1.2.0', 'headListPrompts']);
    const current = await (await fetch(`${server.url}/openapi.json`)).json() as typeof served & { 'x-head-for-every-get': { enabled: boolean } };
    expect([current.info.version.split('.')[0], current['x-head-for-every-get'].enabled]).toEqual(['2', true]);
    expect(Object.values(current.paths).filter((item) => item.head !== undefined)).toEqual([]);
    expect((await fetch(`${server.url}/openapi/1.1.0.json`)).status).toBe(404);
  });
});
