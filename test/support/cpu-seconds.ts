import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) of this process and of the child processes it has reaped, for the
 * long end-to-end tests that log where their time goes. The children's share comes from Linux's
 * /proc (fields 16 and 17 of /proc/self/stat, cutime and cstime, in clock ticks of 1/100 s); 0
 * elsewhere.
 */
export function cpuSeconds(): { here: number; children: number } {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // Not Linux: the children's share is left out of the log.
  }
  return { here: (user + system) / 1e6, children };
}
