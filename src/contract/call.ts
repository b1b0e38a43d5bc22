import { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * none: no token needed (site info, login). user: a valid session token or code 100.
 * optional: works with or without a session (registration by code from a guest session).
 * operator: the operator key of `npm run admin`, from loopback only.
 */
export type CallAuth = 'none' | 'user' | 'optional' | 'operator';

export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType, A extends CallAuth = CallAuth> {
  /** `feature.name`, unique. */
  id: string;
  method: HttpMethod;
  path: string;
  /** true: signed envelope both ways. */
  checked: boolean;
  auth: A;
  request: Req;
  response: Res;
  /** true when the specification states the method and path; false when we designed them. */
  pathFromSpec: boolean;
  /** What it does, in one line. */
  summary: string;
}

export type CallRequest<C extends CallDef> = z.input<C['request']>;
export type CallParsedRequest<C extends CallDef> = z.output<C['request']>;
export type CallResponse<C extends CallDef> = z.output<C['response']>;

/** The contract group of a call: its id up to the dot (`avatars` of `avatars.list`), the name of the feature that answers it. */
export function callGroup(call: Pick<CallDef, 'id'>): string {
  return call.id.slice(0, call.id.indexOf('.'));
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType, const A extends CallAuth>(def: CallDef<Req, Res, A>): CallDef<Req, Res, A> {
  return def;
}

/** A call as its group lists it: the group names it (`group.key`, see defineGroup). */
export type CallEntry<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType, A extends CallAuth = CallAuth> = Omit<CallDef<Req, Res, A>, 'id'>;

/** What each call states for itself, whatever its kind. */
type CallBody<Req extends z.ZodType, Res extends z.ZodType> = Pick<CallDef<Req, Res>, 'summary' | 'request' | 'response'>;

/** A group of calls, each named after the group and its key: key `add` of group `bot` is `bot.add`. */
export function defineGroup<const G extends string, T extends Record<string, CallEntry>>(group: G, entries: T): { [K in keyof T & string]: T[K] & { id: `${G}.${K}` } } {
  const named = Object.entries(entries).map(([key, entry]) => [key, { id: `${group}.${key}`, ...entry }]);
  return Object.fromEntries(named) as { [K in keyof T & string]: T[K] & { id: `${G}.${K}` } };
}

/** A call of any kind, stated in full (the kinds below fix what they have in common). */
export function callEntry<Req extends z.ZodType, Res extends z.ZodType, const A extends CallAuth>(entry: CallEntry<Req, Res, A>): CallEntry<Req, Res, A> {
  return entry;
}

/** A signed-in user's call, signed both ways, at a path we designed. */
export function userCall<Req extends z.ZodType, Res extends z.ZodType>(method: HttpMethod, path: string, body: CallBody<Req, Res>): CallEntry<Req, Res, 'user'> {
  return { method, path, checked: true, auth: 'user', pathFromSpec: false, ...body };
}

/** A signed-in user's call, signed both ways, at the method and path the specification states. */
export function specCall<Req extends z.ZodType, Res extends z.ZodType>(method: HttpMethod, path: string, body: CallBody<Req, Res>): CallEntry<Req, Res, 'user'> {
  return { ...userCall(method, path, body), pathFromSpec: true };
}

/**
 * A signed-in user's call that is not signed, at a path we designed: an event stream or audio whose token rides in the
 * query (EventSource and <audio> cannot set headers), or a multipart form with the x-token header.
 */
export function uncheckedCall<Req extends z.ZodType, Res extends z.ZodType>(method: HttpMethod, path: string, body: CallBody<Req, Res>): CallEntry<Req, Res, 'user'> {
  return { method, path, checked: false, auth: 'user', pathFromSpec: false, ...body };
}

/** A call of `npm run admin`: the operator key from loopback, not signed, at a path we designed. */
export function operatorCall<Req extends z.ZodType, Res extends z.ZodType>(method: HttpMethod, path: string, body: CallBody<Req, Res>): CallEntry<Req, Res, 'operator'> {
  return { method, path, checked: false, auth: 'operator', pathFromSpec: false, ...body };
}

/** A call of `npm run admin` that adds one record (a notice, a public avatar …): its fields in, the new record's id out. */
export function operatorAdd<S extends z.ZodRawShape>(path: string, summary: string, fields: S) {
  return operatorCall('POST', path, { summary, request: z.object(fields), response: z.object({ id: z.number().int() }) });
}

/** A call of `npm run admin` that reads a whole list (voices, avatars, bots …), narrowed by what its request says. */
export function operatorList<Req extends z.ZodType, Item extends z.ZodType>(path: string, summary: string, request: Req, item: Item) {
  return operatorCall('POST', path, { summary, request, response: z.object({ list: z.array(item) }) });
}

/** Query-string transport for GET and DELETE, form body for POST and PUT. */
export function paramsInQuery(method: HttpMethod): boolean {
  return method === 'GET' || method === 'DELETE';
}
