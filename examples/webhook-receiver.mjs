// A minimal webhook receiver: verifies each delivery as the official client's `verifyWebhook`
// does (clients/typescript/README.md, "Webhooks"), drops duplicates by webhook-id (delivery is at
// least once) and prints each event.
//
//   WEBHOOK_SECRET=whsec_… [WEBHOOK_PREVIOUS_SECRET=whsec_…] PORT=4000 node examples/webhook-receiver.mjs
//
// The rules: the Standard Webhooks headers are required (webhook-id, webhook-timestamp,
// webhook-signature) and the timestamp must be within 5 minutes, so a captured delivery cannot be
// replayed later; X-Webhook-Signature alone is not enough (it covers the body, not the time).
// During a secret rotation's grace, set WEBHOOK_PREVIOUS_SECRET too: a delivery signed by either
// verifies. Signatures are compared in constant time, and any malformed header is a refusal.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secrets = [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_PREVIOUS_SECRET].filter(Boolean);
if (!secrets.every((s) => /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(s)) || secrets.length === 0) {
  console.error('set WEBHOOK_SECRET (and WEBHOOK_PREVIOUS_SECRET during a rotation) to the whsec_… secrets shown by the service');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);
const TOLERANCE_SECONDS = 300;
const seen = new Set(); // a real receiver keeps this in its database

/** The event of a delivery whose signature holds for one of the secrets, or throws why not. */
function verify(rawBody, headers) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!id || !timestamp || !signature) throw new Error('webhook-id, webhook-timestamp and webhook-signature are required');
  if (!/^\d{1,12}$/.test(timestamp)) throw new Error('webhook-timestamp is not a number of seconds');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw new Error('webhook-timestamp is outside the tolerance');
  const given = signature.split(' ').filter((s) => s.startsWith('v1,')).map((s) => Buffer.from(s.slice(3), 'base64'));
  const matches = secrets.some((secret) => {
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.`).update(rawBody).digest();
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
  if (!matches) throw new Error('webhook-signature matches no secret');
  return JSON.parse(rawBody.toString('utf8'));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let event;
    try {
      event = verify(Buffer.concat(chunks), req.headers); // the bytes as sent, never re-serialised JSON
    } catch (err) {
      console.log(`refused: ${err.message}`);
      res.writeHead(400).end();
      return;
    }
    const id = req.headers['webhook-id'];
    // Answer 2xx quickly (within 15 s) and do slow work afterwards; anything else is retried.
    res.writeHead(204).end();
    if (seen.has(id)) {
      console.log(`duplicate ${id}, already handled`);
      return;
    }
    seen.add(id);
    const { data } = event;
    const state = data.status ?? data.stage ?? (data.processing?.completed ? 'completed' : 'processing');
    console.log(`${event.timestamp}  ${event.event.padEnd(30)} ${state.padEnd(10)} ${data.title ?? data.name ?? data.url ?? data.id}${event.is_test ? '  (test)' : ''}`);
  });
});
server.listen(port, '127.0.0.1', () => console.log(`receiving webhooks on http://127.0.0.1:${server.address().port}/hooks`));
