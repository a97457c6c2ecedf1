import type { Server } from 'node:http';
import type { components } from '../../generated/openapi.js';
import { requestInProcess } from '../http/in-process-request.js';

export type Schemas = components['schemas'];

/** An answer of the administration API, in its envelope. */
export interface ApiAnswer<T> {
  status: number;
  code: number;
  messages: string;
  data: T;
}

/** A refusal of the administration API: the console shows its message as the API wrote it. */
export class ApiRefusal extends Error {
  constructor(readonly status: number, readonly code: number, message: string, readonly data: unknown) {
    super(message);
  }
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | undefined>;
  /** The rendered form's key: a double submit of one form is one write. */
  idempotencyKey?: string;
}

/**
 * The administration API as the console calls it: every call is a request through the app's own
 * pipeline (src/http/in-process-request.ts), authenticated by the session, so the console passes
 * the same guards, validation, caps and idempotency as any client, and reaches the store by no
 * other path. A call made for a session never spends the workspace's rate limit (http/guards/admin-guard.ts).
 */
export class AdminApi {
  constructor(
    private readonly server: Server,
    private readonly workspaceId: string,
    private readonly sessionSecret: string,
    private readonly clientAddress: string | undefined,
    private readonly requestId: string | undefined,
  ) {}

  /** The answer's data on a 2xx; an `ApiRefusal` with the API's message otherwise. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') query.set(name, value);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${this.sessionSecret}`, accept: 'application/json' };
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    // The page's request id goes along, so the log ties the API's line to the page's.
    if (this.requestId !== undefined) headers['x-request-id'] = this.requestId;
    const answer = await requestInProcess(this.server, {
      method,
      path: `/api/workspace/${encodeURIComponent(this.workspaceId)}${path}${search}`,
      headers,
      body: options.body,
      clientAddress: this.clientAddress,
    });
    const envelope = (answer.body ?? {}) as { code?: number; messages?: string; data?: unknown };
    const code = envelope.code ?? 0;
    const messages = envelope.messages ?? `The administration API answered ${answer.status}.`;
    if (answer.status >= 400) throw new ApiRefusal(answer.status, code, messages, envelope.data ?? null);
    return { status: answer.status, code, messages, data: envelope.data as T };
  }
}
