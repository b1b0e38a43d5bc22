import { z } from 'zod';
import { defineGroup, callEntry, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { empty, requiredText, text } from '../schema';
import { blankToUndefined } from './fields';

export const Profile = z.object({
  username: z.string(),
  avatar: z.string(),
  /** Membership expiry, `YYYY-MM-DD HH:mm:ss` or '' for none. */
  expire_time: z.string(),
  is_tourist: z.union([z.literal(0), z.literal(1)]),
  credits: z.number().int(),
});
export type Profile = z.infer<typeof Profile>;

const password = (message: string) => requiredText('密码', message, 64);

export const accountCalls = defineGroup('account', {
  login: callEntry({
    method: 'POST', path: '/api/login', checked: true, auth: 'none', pathFromSpec: false,
    summary: 'Log in with username and password; returns a session token (spec name: login).',
    request: z.object({
      username: requiredText('账号', MSG.loginUsernameRequired, 64),
      password: password(MSG.loginPasswordRequired),
      client: z.literal('pc').default('pc'),
      /** The captcha of account.captcha, once the account has had repeated failures (README: login limits). */
      captcha_id: z.preprocess(blankToUndefined, text('验证码', 64).optional()),
      captcha: z.preprocess(blankToUndefined, text('验证码', LIMITS.captcha.length * 2).optional()),
    }),
    response: z.object({ token: z.string() }),
  }),
  captcha: callEntry({
    method: 'GET', path: '/api/captcha', checked: true, auth: 'none', pathFromSpec: false,
    summary:
      'ours: a login captcha (part 1 §9: 4 characters, 120x40): {captcha_id, image} where image is a server-made PNG data URL; ' +
      'the answer is checked by the server once (right or wrong, the captcha is used up).',
    request: empty,
    response: z.object({ captcha_id: z.string(), image: z.string() }),
  }),
  logout: userCall('POST', '/api/logout', {
    summary: 'Revoke the current session token on the server.',
    request: empty, response: z.object({}),
  }),
  changePassword: userCall('POST', '/api/user/changePwd', {
    summary: 'Change password {old_password, password, confirm}; revokes every session of the account (spec name: changePwd).',
    request: z
      .object({
        old_password: password(MSG.oldPasswordRequired),
        password: password(MSG.newPasswordRequired).pipe(z.string().min(LIMITS.passwordMinLength, MSG.passwordTooShort)),
        confirm: password(MSG.confirmPasswordRequired),
      })
      .refine((v) => v.password === v.confirm, { message: MSG.passwordMismatch, path: ['confirm'] }),
    response: z.object({}),
  }),
  profile: userCall('GET', '/api/user/profile', {
    summary: 'Account and credits: username, avatar, expire_time, is_tourist, credits (spec: credits/profile).',
    request: empty, response: Profile,
  }),
  credits: userCall('GET', '/api/user/credits', {
    summary: 'Live credit balance only (spec name: credits).',
    request: empty, response: z.object({ credits: z.number().int() }),
  }),
});
