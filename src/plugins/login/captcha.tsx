/**
 * The login captcha (part 1 §9: 4 characters, 120×40, uppercase without O and digits 1–9). The server asks for it
 * once an account has had repeated failures (README: login limits); the picture is made and checked there, and
 * each one answers a single attempt, so the form fetches a fresh one after every failed try.
 */
import { InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../contract';

export interface CaptchaImage {
  captcha_id: string;
  image: string;
}

/** A failed login whose message means: show (or renew) the captcha. */
export function asksForCaptcha(message: string): boolean {
  return message === MSG.captchaRequired || message === MSG.captchaWrong;
}

/** The answer as the server compares it: trimmed, upper case. */
export function captchaAnswer(typed: string): string {
  return typed.trim().toUpperCase();
}

export function captchaAnswerComplete(typed: string): boolean {
  return captchaAnswer(typed).length === LIMITS.captcha.length;
}

export function CaptchaField(props: { image: CaptchaImage; value: string; onChange: (v: string) => void; onRenew: () => void }) {
  const { width, height, length } = LIMITS.captcha;
  return (
    <div className="login-captcha" style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <InputGroup
        id="login-captcha"
        large
        placeholder={MSG.captchaRequired}
        value={props.value}
        maxLength={length}
        onValueChange={props.onChange}
        autoComplete="off"
        aria-label="验证码"
      />
      <img src={props.image.image} width={width} height={height} alt="验证码" title="看不清？换一张" onClick={props.onRenew} style={{ flex: 'none', cursor: 'pointer', borderRadius: 4 }} data-testid="captcha-image" />
    </div>
  );
}
