import pino from 'pino';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { reportDroppedConnections } from '../../../src/http/connection-limits.js';

const ONE = 'refused a connection: the server holds its maximum of open connections';
const COUNT = 'refused connections: the server holds its maximum of open connections';

// A flood of connections past HTTP_MAX_CONNECTIONS must not flood the log as well
// (test/integration/foundation/connection-limits.test.ts shows the refusal itself).
describe('the log of connections refused at the cap', () => {
  it('logs the first at once, then how many more once a minute, and after a quiet minute the next at once again', () => {
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const logged: Array<{ msg: string; max_connections: number; refused?: number }> = [];
    const report = reportDroppedConnections(pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) }), 3);
    const seen = () => logged.map(({ msg, max_connections, refused }) => ({ msg, max_connections, refused }));

    report();
    report();
    report();
    expect(seen()).toEqual([{ msg: ONE, max_connections: 3, refused: undefined }]);
    vi.advanceTimersByTime(60_000);
    expect(seen().slice(1)).toEqual([{ msg: COUNT, max_connections: 3, refused: 2 }]);
    vi.advanceTimersByTime(60_000);
    expect(logged).toHaveLength(2);
    report();
    expect(seen().slice(2)).toEqual([{ msg: ONE, max_connections: 3, refused: undefined }]);
  });
});
