/** Result codes of every API reply: `{ code, msg, data }`. */
export const ResultCode = {
  Ok: 0,
  Error: 1,
  SessionExpired: 100,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

export interface ApiReply<T = unknown> {
  code: ResultCode;
  msg: string;
  data: T;
}

/** Header that carries the session token on every authenticated call and on direct uploads. */
export const TOKEN_HEADER = 'x-token';
/** Header that carries the operator key for the `npm run admin` commands. */
export const OPERATOR_KEY_HEADER = 'x-operator-key';
