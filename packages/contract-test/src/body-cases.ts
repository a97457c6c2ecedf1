import { followLinks } from './contract-links.js';
import { credentialFor } from './credentials.js';
import { all, namesParameters, reaches, status, succeeds } from './expectations.js';
import { bodyModel, invalidBody, type Body, type InvalidDraw } from './body-values.js';
import type { Credential, ObservedResponse, OutgoingRequest } from './http-exchange.js';
import type { Operation } from './openapi-contract.js';
import { checkProperty } from './property-cases.js';
import { fillPath, pathParameters } from './read-cases.js';
import { READ_METHODS } from './markers.js';
import type { RunContext } from './run-context.js';

/**
 * Random draws per operation and property in the default plan, after the valid edges; `--full`
 * draws `--examples` and sends every invalid body besides. Measured: about 50 requests for the
 * eight writes with a body, of the plan's 290.
 */
const PLAN_DRAWS = 1;

export interface BodySettings {
  token: Credential;
  /** Path values of the run's own objects, by parameter name (`workspace_id`, `webhook_id`). */
  own: Record<string, string>;
  webhookUrl: string;
  /** The name every object the run creates carries. */
  createdName: string;
  examples: number;
  full: boolean;
  /** `--operations`: only these get body cases. */
  operations: readonly string[] | undefined;
  /** Operations that must change nothing whatever they are sent (removing or demoting a member). */
  neverSent: readonly string[];
}

/**
 * What removes an object a 2xx answer created (its link names an id the request's path did not
 * hold): the DELETE at the path the link leads to, else the linked write itself (a key's revoke).
 */
function removal(ctx: RunContext, op: Operation, request: OutgoingRequest, response: ObservedResponse): { op: Operation; values: Record<string, string> } | undefined {
  const held = new Set(pathParameters(op).map((p) => p.name));
  for (const [target, values] of followLinks(op, request, response)) {
    if (Object.keys(values).every((name) => held.has(name))) continue;
    const linked = ctx.contract.operation(target);
    if (!linked) continue;
    const deletion = ctx.contract.operations.find((o) => o.method === 'DELETE' && o.path === linked.path);
    if (deletion) return { op: deletion, values };
    if (!READ_METHODS.includes(linked.method)) return { op: linked, values };
  }
  return undefined;
}

/**
 * With `--allow-writes`: property-based request bodies for every write of the contract that takes
 * a JSON body, derived from its request schema (`body-values.ts`). Valid bodies (the edges, which
 * reach every enumeration value and both bounds of each bounded field, then random draws) must be
 * accepted (positive_data_acceptance); invalid ones, one field made invalid at a time, refused with
 * the 422 envelope naming that field (negative_data_rejection). A failing body is shrunk before it
 * is reported. The writes act on the run's own objects; an operation whose path names an object the
 * run does not hold takes a fresh one per draw, made through the operation a link of the contract
 * names as its creator (a key can only be narrowed, so each update draw gets a key of its own);
 * whatever a draw created, the run removes at once. `neverSent` operations get only invalid bodies,
 * on ids that name nothing, where the contract's order of checks puts 422 before the resource's 404.
 */
export async function checkRequestBodies(ctx: RunContext, settings: BodySettings): Promise<void> {
  const writes = ctx.contract.operations.filter((op) => !READ_METHODS.includes(op.method) && op.requestBody?.schemaPointer !== undefined
    && (settings.operations === undefined || settings.operations.includes(op.operationId)));
  for (const op of writes) {
    const credential = credentialFor(ctx.contract, op, [settings.token]);
    const model = bodyModel(ctx.contract, op.requestBody!.schemaPointer!, { url: settings.webhookUrl, unknownProperty: ctx.values.unknownParameterName(), now: new Date() });
    if (!credential || !model) continue;
    const missing = pathParameters(op).map((p) => p.name).filter((name) => settings.own[name] === undefined);
    const neverSent = settings.neverSent.includes(op.operationId);
    const creator = missing.length === 1 && !neverSent ? creatorOf(ctx, missing[0]!) : undefined;
    if (missing.length > 0 && !neverSent && !creator) {
      ctx.skip(op, 'request bodies', `no object of the run for ${missing.map((m) => `{${m}}`).join(', ')}`);
      continue;
    }
    // Objects made for one draw, removed once it is answered.
    const madeFor = new Map<OutgoingRequest, () => Promise<void>>();
    const requestFor = async (body: Body): Promise<OutgoingRequest | undefined> => {
      const values = { ...settings.own };
      let remove: (() => Promise<void>) | undefined;
      if (neverSent) for (const name of missing) values[name] = ctx.values.uuid();
      else if (creator) {
        const made = await makeFresh(ctx, creator, settings);
        if (!made) return undefined;
        Object.assign(values, made.values);
        remove = made.remove;
      }
      const request: OutgoingRequest = { method: op.method, path: fillPath(op.path, values), query: [], credential, body };
      if (remove) madeFor.set(request, remove);
      return request;
    };
    const settle = async (request: OutgoingRequest, response: ObservedResponse | undefined) => {
      if (response && response.status >= 200 && response.status < 300) {
        const made = removal(ctx, op, request, response);
        if (made) await removeObject(ctx, made, settings, 'remove what the draw created');
      }
      await madeFor.get(request)?.();
      madeFor.delete(request);
    };

    if (!neverSent) {
      await ctx.as('positive_data_acceptance', () => checkProperty(ctx, op, 'a valid body accepted', model.valid, requestFor, () => reaches(op),
        settings.full ? settings.examples : PLAN_DRAWS, { edges: model.edges, settle }));
    }
    const order = ctx.contract.orderOfChecks(op);
    if (!model.invalid || (neverSent && !(order.indexOf(422) >= 0 && order.indexOf(422) < order.lastIndexOf(404)))) continue;
    await ctx.as('negative_data_rejection', () => checkProperty<InvalidDraw>(ctx, op, 'an invalid body refused with 422 naming its field', model.invalid!,
      (draw) => requestFor(invalidBody(draw).body),
      (draw) => {
        const { field } = invalidBody(draw);
        return all(status(422, 4220), namesParameters(field === '' ? [] : [field]));
      },
      settings.full ? settings.examples : PLAN_DRAWS,
      { edges: settings.full ? model.everyInvalid : [], settle, label: (draw) => { const { field, kind } = invalidBody(draw); return field === '' ? kind : `${field}: ${kind}`; } }));
  }
}

/** The write whose 2xx answer links to an operation taking `parameter` (`createApiKey` → `revokeApiKey` gives `key_id`), with no such parameter in its own path. */
function creatorOf(ctx: RunContext, parameter: string): Operation | undefined {
  return ctx.contract.operations.find((o) => o.method === 'POST' && o.requestBody?.schemaPointer !== undefined
    && !pathParameters(o).some((p) => p.name === parameter)
    && o.links.some((l) => l.status.startsWith('2') && Object.keys(l.parameters).some((k) => k.replace(/^path\./, '') === parameter)));
}

/** One object made through `creator` with its plain valid body, and how to remove it. */
async function makeFresh(ctx: RunContext, creator: Operation, settings: BodySettings): Promise<{ values: Record<string, string>; remove: () => Promise<void> } | undefined> {
  const model = bodyModel(ctx.contract, creator.requestBody!.schemaPointer!, { url: settings.webhookUrl, unknownProperty: '', now: new Date() });
  const credential = credentialFor(ctx.contract, creator, [settings.token]);
  if (!model || !credential) return undefined;
  const named = { ...model.sample, name: settings.createdName };
  const body = ctx.contract.requestBodyProblems(creator, named).length === 0 ? named : model.sample;
  const request: OutgoingRequest = { method: creator.method, path: fillPath(creator.path, settings.own), query: [], credential, body };
  const response = await ctx.exchange(creator, 'make an object for the next draw', request, all(succeeds, status(201)));
  if (!response) return undefined;
  const made = removal(ctx, creator, request, response);
  if (!made) return undefined;
  return { values: made.values, remove: () => removeObject(ctx, made, settings, 'remove the object made for the draw') };
}

async function removeObject(ctx: RunContext, made: { op: Operation; values: Record<string, string> }, settings: BodySettings, title: string): Promise<void> {
  const credential = credentialFor(ctx.contract, made.op, [settings.token]) ?? settings.token;
  await ctx.exchange(made.op, title, { method: made.op.method, path: fillPath(made.op.path, made.values), query: [], credential }, succeeds, { essential: true });
}
