/** Credits, redemption codes, guest accounts and storage space (part 1 §2 credits page, §3, §7, §9). */
import { z } from 'zod';
import { defineGroup, callEntry, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { empty, plainString, requiredText } from '../schema';
import { Flag, Timestamp, blankToUndefined, calendarDate, countedPage, pageFields, userRead } from './fields';

/** Storage space (part 1 §3): used and total in MB, total_format for display (e.g. '5GB'). */
export const Space = z.object({
  /** MB used. */
  used: z.number(),
  /** MB granted. */
  total: z.number(),
  /** total for display, e.g. '5GB'. */
  total_format: z.string(),
  /** 1 when another expansion is allowed (never for guests). */
  can_expand: Flag,
});
export type Space = z.infer<typeof Space>;

export const CreditLog = z.object({
  action_name: z.string(),
  create_time: Timestamp,
  /** Signed: grants positive, spends negative. */
  credits: z.number(),
});
export type CreditLog = z.infer<typeof CreditLog>;

export const CreditExpiry = z.object({
  expire_time: Timestamp,
  credits: z.number(),
});
export type CreditExpiry = z.infer<typeof CreditExpiry>;

const PHONE = /^1\d{10}$/;

const date = calendarDate();

export const creditsCalls = defineGroup('credits', {
  cdkey: callEntry({
    method: 'POST', path: '/api/cdkey', checked: true, auth: 'optional', pathFromSpec: false,
    summary:
      'Redeem a code (spec name: cdkey). Logged in with {code} → {credits} added. With {username (phone), password, code, client:pc} ' +
      'registers a new account, or converts the calling guest session into it, and returns {token, credits}.',
    request: z
      .object({
        code: requiredText('兑换码', MSG.registerCodeRequired, 64),
        username: z.preprocess(blankToUndefined, plainString('手机号', MSG.registerPhoneInvalid).trim().regex(PHONE, MSG.registerPhoneInvalid).optional()),
        password: z.preprocess(
          blankToUndefined,
          requiredText('密码', MSG.loginPasswordRequired, 64).pipe(z.string().min(LIMITS.passwordMinLength, MSG.passwordTooShort)).optional(),
        ),
        client: z.literal('pc').default('pc'),
      })
      .superRefine((v, ctx) => {
        if (v.username !== undefined && v.password === undefined) {
          ctx.addIssue({ code: 'custom', message: MSG.loginPasswordRequired, path: ['password'] });
        }
        if (v.username === undefined && v.password !== undefined) {
          ctx.addIssue({ code: 'custom', message: MSG.loginUsernameRequired, path: ['username'] });
        }
      }),
    response: z.object({
      /** Credits the code granted. */
      credits: z.number(),
      /** Present when the call registered (or converted a guest into) an account. */
      token: z.string().optional(),
    }),
  }),
  tourist: callEntry({
    method: 'POST', path: '/api/tourist', checked: true, auth: 'none', pathFromSpec: false,
    summary: 'ours: create a guest account (is_tourist = 1) with the operator-set guest credits; returns its session token. Rate limited per IP.',
    request: empty,
    response: z.object({ token: z.string() }),
  }),
  space: userRead('/api/user/space', {
    summary: 'Storage space: used and total (MB), total_format, can_expand (spec name: space).',
    response: Space,
  }),
  spaceExpand: userCall('POST', '/api/user/spaceExpand', {
    summary: `Expand space by ${LIMITS.spaceExpandGb} GB for ${LIMITS.spaceExpandCredits} credits; at the cap answers MSG.spaceExpandAtLimit; refused to guests (spec name: spaceExpand). Returns the new space (ours).`,
    request: empty,
    response: Space,
  }),
  log: userCall('GET', '/api/user/creditsLog', {
    summary: 'Credit usage list within an optional date range, newest first (spec name: creditsLog).',
    request: z
      .object({
        start: z.preprocess(blankToUndefined, date.optional()),
        end: z.preprocess(blankToUndefined, date.optional()),
        ...pageFields,
      })
      .refine((v) => !v.start || !v.end || v.start <= v.end, { message: MSG.dateRangeInvalid, path: ['end'] }),
    response: countedPage(CreditLog),
  }),
  daily: userCall('GET', '/api/user/creditsDaily', {
    summary: 'ours: credits spent per day (China time) over a date range, every day present (0 when none), for the chart on /consum.',
    request: z
      .object({ start: date, end: date })
      .refine((v) => v.start <= v.end, { message: MSG.dateRangeInvalid, path: ['end'] })
      .refine((v) => (Date.parse(v.end) - Date.parse(v.start)) / 86_400_000 <= LIMITS.dailyChartMaxDays, { message: MSG.dateRangeTooLong, path: ['end'] }),
    response: z.object({ list: z.array(z.object({ date: z.string(), spent: z.number() })) }),
  }),
  expiry: userRead('/api/user/creditsExpire', {
    summary: 'Unexpired credit batches by expiry date (credits detail page); total is the sum of their credits.',
    response: z.object({ details: z.array(CreditExpiry), total: z.number() }),
  }),
  rule: userRead('/api/creditsRule', {
    summary: 'Points-rule text (HTML) for the points popover (spec name: creditsRule).',
    response: z.object({ content: z.string() }),
  }),
});
