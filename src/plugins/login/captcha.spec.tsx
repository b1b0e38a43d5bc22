import 'reflect-metadata';
import { act } from 'react';
import { Container } from 'inversify';
import { BehaviorSubject, Subject } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, LIMITS, MSG, type CallDef } from '../../contract';
import { ApiCallError, ContainerProvider, TOKENS, type ApiClient, type AuthService, type Navigation } from '../../core';
import { asksForCaptcha, captchaAnswer, captchaAnswerComplete } from './captcha';
import LoginPage from './panels/LoginPage';
import { reactHost, expectAnswers } from '../../../tests/support/react-host';
import { recordingNotifier } from '../../../tests/support/notes';
import { screenServices } from '../../../tests/support/fake-api';

describe('captcha rules of the login form', () => {
  it('shows the captcha for the server’s two captcha messages only', () => {
    expectAnswers(asksForCaptcha, [
      [MSG.captchaRequired, true],
      [MSG.captchaWrong, true],
      [MSG.loginFailed, false],
      [MSG.loginRateLimited, false],
    ]);
  });

  it('sends the answer as the server compares it, and only a whole one', () => {
    expect(captchaAnswer(' ab3x ')).toBe('AB3X');
    expect(captchaAnswerComplete('ab3')).toBe(false);
    expect(captchaAnswerComplete('ab3x')).toBe(LIMITS.captcha.length === 4);
  });
});

describe('LoginPage with the captcha', () => {
  const view = reactHost();
  const { notes, notifier } = recordingNotifier();
  let logins: unknown[][];
  let loginReplies: (Error | null)[];
  let captchas: number;

  const api = {
    call: async (call: CallDef) => {
      if (call.id !== API.account.captcha.id) throw new Error(`unexpected ${call.id}`);
      captchas++;
      return { captcha_id: `c${captchas}`, image: 'data:image/png;base64,iVBORw0KGgo=' };
    },
  } as unknown as ApiClient;
  const auth = {
    login: async (...args: unknown[]) => {
      logins.push(args);
      const reply = loginReplies.shift();
      if (reply) throw reply;
    },
  } as unknown as AuthService;

  beforeEach(() => {
    logins = [];
    loginReplies = [];
    captchas = 0;
  });

  async function render() {
    const container = new Container();
    container.bind(TOKENS.ScreenServices).toConstantValue(
      screenServices({
        api,
        notifier,
        auth,
        tokens: { get: () => null, set: vi.fn(), clear: vi.fn(), token$: new BehaviorSubject(null) },
        storage: { get: <T,>(_key: string, fallback: T) => fallback, set: vi.fn(), remove: vi.fn(), removeAll: vi.fn() },
        navigation: { navigate: vi.fn(), current: { path: '/login', query: {} } } as unknown as Navigation,
      }),
    );
    container.bind(TOKENS.SiteService).toConstantValue({ site$: new BehaviorSubject(null) });
    await act(async () => {
      view.root.render(
        <ContainerProvider container={container}>
          <LoginPage query={{}} closed$={new Subject<void>()} />
        </ContainerProvider>,
      );
    });
  }

  async function type(selector: string, value: string) {
    const input = view.host.querySelector<HTMLInputElement>(selector)!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }

  /** Blueprint puts the test id on the checkbox's input or its label, depending on the version. */
  async function agree() {
    const box = view.host.querySelector<HTMLElement>('[data-testid="agreement"]')!;
    await act(async () => (box instanceof HTMLInputElement ? box : box.querySelector<HTMLInputElement>('input')!).click());
  }

  async function submit() {
    await act(async () => {
      view.host.querySelector<HTMLButtonElement>('[data-testid="login-submit"]')!.click();
    });
    await act(async () => new Promise((r) => setTimeout(r, 0)));
  }

  it('asks for the captcha when the server does, sends it with the next try, and renews it after a failure', async () => {
    await render();
    await type('#login-username', '13800000001');
    await type('#login-password', 'abc123');
    await agree();
    expect(view.host.querySelector('[data-testid="captcha-image"]')).toBeNull();

    loginReplies = [new ApiCallError(MSG.captchaRequired, 1), new ApiCallError(MSG.captchaWrong, 1)];
    await submit();
    expect(logins).toEqual([['13800000001', 'abc123', undefined]]);
    const image = view.host.querySelector<HTMLImageElement>('[data-testid="captcha-image"]');
    expect(image).not.toBeNull();
    expect([image!.width, image!.height]).toEqual([LIMITS.captcha.width, LIMITS.captcha.height]);

    // Without the 4 characters the form does not send.
    await submit();
    expect(logins).toHaveLength(1);
    expect(notes.at(-1)).toEqual({ kind: 'warn', message: MSG.captchaRequired });

    await type('#login-captcha', 'ab3x');
    await submit();
    expect(logins[1]).toEqual(['13800000001', 'abc123', { captcha_id: 'c1', captcha: 'AB3X' }]);
    // Wrong: a fresh captcha replaces the used one and the field is empty again.
    expect(captchas).toBe(2);
    expect(view.host.querySelector<HTMLInputElement>('#login-captcha')!.value).toBe('');

    await type('#login-captcha', 'K7MZ');
    await submit();
    expect(logins[2]).toEqual(['13800000001', 'abc123', { captcha_id: 'c2', captcha: 'K7MZ' }]);
    expect(notes.at(-1)).toEqual({ kind: 'success', message: MSG.loginSucceeded });
  });

  it('an ordinary wrong password shows no captcha', async () => {
    await render();
    await type('#login-username', '13800000001');
    await type('#login-password', 'wrong1');
    await agree();
    loginReplies = [new ApiCallError(MSG.loginFailed, 1)];
    await submit();
    expect(view.host.querySelector('[data-testid="captcha-image"]')).toBeNull();
    expect(captchas).toBe(0);
    expect(notes.at(-1)).toEqual({ kind: 'error', message: MSG.loginFailed });
  });
});
