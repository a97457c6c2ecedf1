// Which responses answer a HEAD request. Kept beside the stream writer, which reads it (write-lines.ts);
// head-requests.ts marks them.
const headResponses = new WeakSet<object>();

/** Marks a response as answering a HEAD request. */
export function markHeadResponse(res: object): void {
  headResponses.add(res);
}

/** Whether a response answers a HEAD request, for which Node sends no body whatever is written. */
export function sendsNoBody(res: object): boolean {
  return headResponses.has(res);
}
