import type { Request, RequestHandler } from 'express';

// A host name or address with an optional port; anything else in `Host` is not worth echoing.
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** The address and port this connection reached, as an origin (`[…]` around IPv6, IPv4-mapped as IPv4). */
function listeningOrigin(req: Request): string | undefined {
  const { localAddress, localPort } = req.socket;
  if (localAddress === undefined || localPort === undefined) return undefined;
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return `${req.protocol}://${address.includes(':') ? `[${address}]` : address}:${localPort}`;
}

/**
 * The origin clients use: the configured public one, else the one this request reached (as a
 * trusted proxy forwarded it, `X-Forwarded-Host` and `-Proto`; see TRUST_PROXY), else, for a
 * request without a usable `Host` (HTTP/1.0 needs none), the address and port it connected to.
 */
function serverUrl(req: Request, publicBaseUrl: string | undefined): string | undefined {
  if (publicBaseUrl !== undefined) return publicBaseUrl;
  const host = req.host;
  return host !== undefined && HOST.test(host) ? `${req.protocol}://${host}` : listeningOrigin(req);
}

/**
 * `GET /openapi.json`: the bundled contract with `servers` naming where the client reached it
 * (PUBLIC_BASE_URL when set, for a service behind a proxy), so a client generated from it calls
 * this service and not the contract's local default.
 */
export function servePublishedContract(document: object, publicBaseUrl: string | undefined): RequestHandler {
  return (req, res) => {
    const url = serverUrl(req, publicBaseUrl);
    res.json(url === undefined ? document : { ...document, servers: [{ url, description: 'This service' }] });
  };
}
