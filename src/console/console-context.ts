import type { Request, Response } from 'express';
import type { Html } from './html.js';
import type { AdminApi } from './admin-api.js';
import type { ConsoleMember } from '../keys/console-sessions.js';
import type { ContractOperation } from '@workspace-read-api/contract/contract-operations.js';
import type { OperationBodyDefaults } from '../../generated/operation-defaults.js';

/** A form as the console parses it: each field a string, or a list when it was sent several times. */
export type FormBody = Record<string, string | string[] | undefined>;

/** What a console page of a signed-in member works with. */
export interface ConsoleContext {
  req: Request;
  res: Response;
  member: ConsoleMember;
  /** The CSRF token of every form the page renders. */
  csrf: string;
  /** The administration API, called as this session. */
  api: AdminApi;
  form: FormBody;
  /** What the contract gives a body property when a request leaves it out: what a form preselects. */
  bodyDefault: BodyDefault;
}

/** The `default:` the contract gives a property of an operation's JSON body. */
export type BodyDefault = <Op extends keyof OperationBodyDefaults, K extends keyof OperationBodyDefaults[Op]>(operationId: Op, property: K) => OperationBodyDefaults[Op][K];

/** Reads the body defaults of the app's compiled operations (the generated type says which exist). */
export function bodyDefaultsOf(operations: readonly ContractOperation[]): BodyDefault {
  const byOperation = new Map(operations.map((op) => [op.operationId, op.bodyDefaults]));
  return (operationId, property) => {
    const value = byOperation.get(operationId)?.[property as string];
    if (value === undefined) throw new Error(`the contract gives ${operationId}'s body property ${String(property)} no default`);
    return value as never;
  };
}

/** A page to show (with its status), or where to go next. */
export type ConsoleAnswer = { page: Html; status?: number } | { redirect: string };

export type ConsoleRoute = (c: ConsoleContext) => Promise<ConsoleAnswer>;

/** One field of the form as a single string ('' when absent). */
export function field(form: FormBody, name: string): string {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Every value of a field sent several times (checkboxes). */
export function fieldList(form: FormBody, name: string): string[] {
  const value = form[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The `Idempotency-Key` the rendered form carried, when it is one. */
export function formIdempotencyKey(form: FormBody): string | undefined {
  const key = field(form, 'idempotency_key');
  return key === '' ? undefined : key;
}

/** One query parameter as a string, or undefined. */
export function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
