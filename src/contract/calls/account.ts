import { z } from 'zod';
import { defineCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { empty, requiredText } from '../schema';

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

export const accountCalls = {
  login: defineCall({
    id: 'account.login', method: 'POST', path: '/api/login', checked: true, auth: 'none', pathFromSpec: false,
    summary: 'Log in with username and password; returns a session token (spec name: login).',
    request: z.object({
      username: requiredText('账号', MSG.loginUsernameRequired, 64),
      password: password(MSG.loginPasswordRequired),
      client: z.literal('pc').default('pc'),
    }),
    response: z.object({ token: z.string() }),
  }),
  logout: defineCall({
    id: 'account.logout', method: 'POST', path: '/api/logout', checked: true, auth: 'user', pathFromSpec: false,
    summary: 'Revoke the current session token on the server.',
    request: empty, response: z.object({}),
  }),
  changePassword: defineCall({
    id: 'account.changePassword', method: 'POST', path: '/api/user/changePwd', checked: true, auth: 'user', pathFromSpec: false,
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
  profile: defineCall({
    id: 'account.profile', method: 'GET', path: '/api/user/profile', checked: true, auth: 'user', pathFromSpec: false,
    summary: 'Account and credits: username, avatar, expire_time, is_tourist, credits (spec: credits/profile).',
    request: empty, response: Profile,
  }),
  credits: defineCall({
    id: 'account.credits', method: 'GET', path: '/api/user/credits', checked: true, auth: 'user', pathFromSpec: false,
    summary: 'Live credit balance only (spec name: credits).',
    request: empty, response: z.object({ credits: z.number().int() }),
  }),
};
