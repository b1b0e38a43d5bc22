import { useState, type FormEvent } from 'react';
import { Button, Checkbox, FormGroup, InputGroup, Tab, Tabs } from '@blueprintjs/core';
import { API, FALLBACK_SITE_TITLE, LIMITS, MSG } from '../../../contract';
import {
  GUEST_OWNER, TOKENS, claimUserData, parseHash, useObservable, useScreenServices, useService, type PanelProps, type SiteService,
} from '../../../core';
import { safeRedirect } from '../redirect';
import { CaptchaField, asksForCaptcha, captchaAnswer, captchaAnswerComplete, type CaptchaImage } from '../captcha';

type LoginTab = '1' | '2';

function Agreement({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <Checkbox className="login-agreement" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} data-testid="agreement">
      我已阅读并同意 <a href="#/protocol?type=user" target="_blank" rel="noreferrer">《用户协议》</a>和
      <a href="#/protocol?type=privacy" target="_blank" rel="noreferrer">《隐私条款》</a>
    </Checkbox>
  );
}

/** The success toast goes when the login page does, so it never sits over what the next page says. */
// A success ends the refusals shown before it (账号或密码错误 must not follow the user to /home).
const LEAVES_WITH_THE_PAGE = { timeout: LIMITS.loginRedirectDelayMs, clearOthers: true };

/** /login: tabs 登录 (state=1) and 兑换码注册 (state=2), outside the workbench layout. */
export default function LoginPage({ query }: PanelProps) {
  const { auth, api, tokens, storage, notifier, navigation } = useScreenServices();
  const siteService = useService<SiteService>(TOKENS.SiteService);
  const site = useObservable(siteService.site$, null);

  const tab: LoginTab = query.state === '2' ? '2' : '1';
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaImage | null>(null);
  const [captchaText, setCaptchaText] = useState('');

  /** A fresh captcha (each answers one attempt). */
  const renewCaptcha = async () => {
    setCaptchaText('');
    try {
      setCaptcha(await api.call(API.account.captcha, {}));
    } catch {
      /* the client has toasted it; the next try asks again */
    }
  };

  const goOn = () => {
    const target = parseHash(`#${safeRedirect(query.redirectUrl)}`);
    setTimeout(() => navigation.navigate(target.path, target.query, { replace: true }), LIMITS.loginRedirectDelayMs);
  };

  const check = (rules: [boolean, string][]): boolean => {
    const failed = rules.find(([ok]) => !ok);
    if (failed) notifier.warn(failed[1]);
    return !failed;
  };

  const login = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (
      !check([
        [username.trim() !== '', MSG.loginUsernameRequired],
        [password !== '', MSG.loginPasswordRequired],
        [!captcha || captchaAnswerComplete(captchaText), MSG.captchaRequired],
        [agreed, MSG.loginAgreementRequired],
      ])
    )
      return;
    setBusy(true);
    try {
      await auth.login(username.trim(), password, captcha ? { captcha_id: captcha.captcha_id, captcha: captchaAnswer(captchaText) } : undefined);
      notifier.success(MSG.loginSucceeded, LEAVES_WITH_THE_PAGE);
      goOn();
    } catch (err) {
      const message = (err as Error).message;
      notifier.error(message);
      setBusy(false);
      // Once asked for, the captcha stays and is renewed after every failure (the server used the last one up).
      if (captcha || asksForCaptcha(message)) await renewCaptcha();
    }
  };

  const register = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (
      !check([
        [/^1[3-9]\d{9}$/.test(username.trim()), username.trim() ? MSG.registerPhoneInvalid : MSG.loginUsernameRequired],
        [password !== '', MSG.loginPasswordRequired],
        [code.trim() !== '', MSG.registerCodeRequired],
        [agreed, MSG.loginAgreementRequired],
      ])
    )
      return;
    setBusy(true);
    try {
      const reply = await api.call(API.credits.cdkey, { username: username.trim(), password, code: code.trim(), client: 'pc' });
      if ('token' in reply && reply.token) {
        claimUserData(storage, username.trim());
        tokens.set(reply.token);
      }
      notifier.success(MSG.registerSucceeded, LEAVES_WITH_THE_PAGE);
      goOn();
    } catch {
      setBusy(false);
    }
  };

  const tryAsGuest = async () => {
    if (busy) return;
    if (!agreed) {
      notifier.warn(MSG.loginAgreementRequired);
      return;
    }
    setBusy(true);
    try {
      const reply = await api.call(API.credits.tourist, {});
      claimUserData(storage, GUEST_OWNER);
      tokens.set(reply.token);
      notifier.success(MSG.loginSucceeded, LEAVES_WITH_THE_PAGE);
      goOn();
    } catch {
      setBusy(false);
    }
  };

  const title = site?.login_title || site?.title || FALLBACK_SITE_TITLE;
  const background = site?.login_bg ? { backgroundImage: `url("${encodeURI(site.login_bg)}")` } : undefined;

  return (
    <div className={`login-page${background ? '' : ' default-bg'}`} style={background}>
      <div className="login-card">
        <div className="login-brand">
          {site?.login_logo ? <img src={site.login_logo} alt="" /> : null}
          <h1>{title}</h1>
        </div>
        <Tabs
          id="login-tabs"
          selectedTabId={tab}
          onChange={(id) => navigation.navigate('/login', { ...query, state: id === '2' ? '2' : undefined }, { replace: true })}
          fill
          large
        >
          <Tab id="1" title="登录" />
          <Tab id="2" title="兑换码注册" />
        </Tabs>
        {tab === '1' ? (
          <form className="login-form" onSubmit={login} noValidate>
            <FormGroup label="账号" labelFor="login-username">
              <InputGroup id="login-username" large placeholder="请输入账号" value={username} onValueChange={setUsername} autoComplete="username" />
            </FormGroup>
            <FormGroup label="密码" labelFor="login-password">
              <InputGroup id="login-password" large type="password" placeholder="请输入密码" value={password} onValueChange={setPassword} autoComplete="current-password" />
            </FormGroup>
            {captcha && (
              <FormGroup label="验证码" labelFor="login-captcha">
                <CaptchaField image={captcha} value={captchaText} onChange={setCaptchaText} onRenew={() => void renewCaptcha()} />
              </FormGroup>
            )}
            <Agreement checked={agreed} onChange={setAgreed} />
            <Button type="submit" intent="primary" size="large" fill loading={busy} text="登录" data-testid="login-submit" />
            {site?.guest_enabled === 1 && (
              <Button className="login-guest" variant="minimal" fill text="游客体验" onClick={() => void tryAsGuest()} data-testid="guest-entry" />
            )}
          </form>
        ) : (
          <form className="login-form" onSubmit={register} noValidate>
            <FormGroup label="手机号" labelFor="reg-username">
              <InputGroup id="reg-username" large placeholder="请输入手机号" value={username} onValueChange={setUsername} autoComplete="username" inputMode="tel" />
            </FormGroup>
            <FormGroup label="密码" labelFor="reg-password" helperText={MSG.passwordPlaceholder}>
              <InputGroup id="reg-password" large type="password" placeholder="请设置密码" value={password} onValueChange={setPassword} autoComplete="new-password" />
            </FormGroup>
            <FormGroup label="兑换码" labelFor="reg-code">
              <InputGroup id="reg-code" large placeholder="请输入兑换码" value={code} onValueChange={setCode} />
            </FormGroup>
            <Agreement checked={agreed} onChange={setAgreed} />
            <Button type="submit" intent="primary" size="large" fill loading={busy} text="注册并兑换" data-testid="register-submit" />
          </form>
        )}
      </div>
      <footer className="login-filing">
        {site?.copyright ? <div>{site.copyright}</div> : null}
        {site?.icp ? (
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
            {site.icp}
          </a>
        ) : null}
        {site?.gabeian ? <span> · {site.gabeian}</span> : null}
      </footer>
    </div>
  );
}
