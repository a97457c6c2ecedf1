import type { Resolver } from './ssrf-guard.js';

/**
 * A resolver that asks `resolve` once per host name and answers every later question about that
 * name with the first answer, or the first failure. An administration write looks its webhook URL
 * up before its unit of work opens (src/http/dispatch.ts); the same check inside the unit then
 * answers from here, without waiting on the network while it holds a transaction or a connection.
 */
export function rememberingResolver(resolve: Resolver): Resolver {
  const answers = new Map<string, Promise<string[]>>();
  return (hostname) => {
    let answer = answers.get(hostname);
    if (answer === undefined) {
      answer = resolve(hostname);
      answers.set(hostname, answer);
    }
    return answer;
  };
}
