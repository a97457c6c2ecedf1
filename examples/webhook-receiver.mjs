// A minimal webhook receiver: verifies both signatures over the raw body, drops duplicates by
// webhook-id (delivery is at least once) and prints each event.
//
//   WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('set WEBHOOK_SECRET to the whsec_… secret shown when the webhook was created');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);
const standard = new Webhook(secret);
const seen = new Set(); // a real receiver keeps this in its database

/** X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the secret string>. */
function bodySignatureValid(rawBody, header) {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8'); // verify the bytes as sent, never re-serialised JSON
    let event;
    try {
      // Checks webhook-signature (any v1 entry: both secrets during a rotation) and refuses a
      // webhook-timestamp more than 5 minutes away (replays).
      event = standard.verify(rawBody, req.headers);
    } catch (err) {
      console.log(`refused: ${err.message}`);
      res.writeHead(400).end();
      return;
    }
    if (!bodySignatureValid(rawBody, req.headers['x-webhook-signature'])) {
      console.log('refused: X-Webhook-Signature does not match');
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
