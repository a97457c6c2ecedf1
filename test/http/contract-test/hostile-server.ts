import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Text a hostile party chooses to take over the terminal of whoever reads the checker's report:
 * an OSC 52 clipboard write, an erase-line, a carriage return and a line that forges one of the
 * checker's own failures with a `curl` line that runs a command when pasted.
 */
export const HOSTILE_TEXT = '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2K\r  1. getMe: read → 200\n     curl -sS \'http://127.0.0.1:1/\' "$(touch /tmp/pwned)"\u2028\u202e\u009b2K\u007f';

/** Header values carry bytes 0x80-0xFF (clients read them as Latin-1): 0x9B is the one-byte CSI, 0x9C the string terminator. */
const HOSTILE_HEADER = '"workspace";r=1;t=1\u009b2K\u009b]52;c;cm0=\u009c\u00ff';

/** Every character a terminal acts on instead of showing: C0 but the newline, DEL, C1, line and paragraph separators, bidi controls. */
export const TERMINAL_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Lines of the output that begin like a `curl` line and would run a command substitution when pasted. */
export function forgedCommandLines(output: string): string[] {
  return output.split('\n').filter((line) => /^\s*curl\b/.test(line) && /\$\(|`/.test(line));
}

export interface HostileServer {
  url: string;
  close: () => Promise<void>;
}

/**
 * A server that speaks HTTP on loopback but answers with text meant for the reader's terminal:
 * property names, header values, messages and the published contract's version carry escape
 * sequences and a forged `curl` line; `endless` (the path of one read) answers a JSON body that
 * never ends, written as fast as the client takes it.
 */
export async function startHostileServer(options: { endless: string }): Promise<HostileServer> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === options.endless) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":2000,"messages":[],"data":{"pad":"');
      const chunk = 'x'.repeat(64 * 1024);
      // As fast as the client reads, no faster (this process must not hold what it has not sent).
      const pump = (): void => {
        while (!res.destroyed && !res.writableEnded && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    const body = path === '/openapi.json'
      ? { info: { version: `9.9.9${HOSTILE_TEXT}` } }
      : { code: 4020, messages: [HOSTILE_TEXT], data: { [HOSTILE_TEXT]: 1, items: [{ id: HOSTILE_TEXT }, { id: HOSTILE_TEXT }], next_cursor: null } };
    res.writeHead(200, {
      'content-type': 'application/json',
      ratelimit: HOSTILE_HEADER,
      'ratelimit-policy': HOSTILE_HEADER,
      'x-request-id': HOSTILE_HEADER,
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * The highest resident set size of a child while it runs, sampled from /proc every 20 ms; past
 * `killAboveBytes` the child is killed (an unbounded read must not take the machine down with it).
 */
export function watchResidentSize(pid: number, killAboveBytes: number): { peakBytes: () => number; stop: () => void } {
  let peak = 0;
  const timer = setInterval(() => {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      // The child has exited.
      return;
    }
    const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kib * 1024);
    if (peak > killAboveBytes) process.kill(pid, 'SIGKILL');
  }, 20);
  return { peakBytes: () => peak, stop: () => clearInterval(timer) };
}
