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

/** Query-string transport for GET and DELETE, form body for POST and PUT. */
export function paramsInQuery(method: HttpMethod): boolean {
  return method === 'GET' || method === 'DELETE';
}
