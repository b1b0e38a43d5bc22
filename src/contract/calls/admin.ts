import { z } from 'zod';
import { defineCall } from '../call';
import { int, requiredText } from '../schema';
import { MSG } from '../messages';
import { SITE_FIELDS, OPERATOR_SETTINGS } from './site';

/** Operator calls behind `npm run admin`: loopback only, operator key header, no envelope. */
export const SETTABLE_KEYS = [...SITE_FIELDS, ...OPERATOR_SETTINGS] as const;

export const adminCalls = {
  userCreate: defineCall({
    id: 'admin.userCreate', method: 'POST', path: '/api/admin/user', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'Create an account, optionally with a credit grant.',
    request: z.object({
      username: requiredText('账号', MSG.loginUsernameRequired, 64),
      password: requiredText('密码', MSG.loginPasswordRequired, 64).pipe(z.string().min(6, MSG.passwordTooShort)),
      credits: int('积分', 0, 100_000_000).default(0),
      expires_days: int('有效天数', 1, 36_500).default(365),
    }),
    response: z.object({ id: z.number().int(), username: z.string(), credits: z.number().int() }),
  }),
  codeCreate: defineCall({
    id: 'admin.codeCreate', method: 'POST', path: '/api/admin/code', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'Create redemption codes worth N credits each.',
    request: z.object({
      credits: int('积分', 1, 100_000_000),
      count: int('数量', 1, 10_000).default(1),
      expires_days: int('有效天数', 1, 36_500).default(365),
    }),
    response: z.object({ codes: z.array(z.string()) }),
  }),
  siteSet: defineCall({
    id: 'admin.siteSet', method: 'POST', path: '/api/admin/site', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'Set site settings (every field of the spec) and operator settings.',
    request: z.object({
      settings: z.partialRecord(z.enum(SETTABLE_KEYS, { error: `未知的设置项，可用：${SETTABLE_KEYS.join(', ')}` }), z.string().max(200_000)),
    }),
    response: z.object({ updated: z.array(z.string()) }),
  }),
};
