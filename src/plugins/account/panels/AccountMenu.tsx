import { Button, Icon, Popover, Tag } from '@blueprintjs/core';
import { API_KEYS_ROUTE, LOGIN_ROUTE } from '../../../contract';
import { TOKENS, useObservable, useService, vipStatus, type AuthService, type Navigation, type ThemeService } from '../../../core';
import { AccountActionsToken, PasswordDialogToken, type PasswordDialogState } from '../account-state';
import type { AccountActions } from '../account-commands';

/** The account popover (width 300): who is logged in, change password, switch account or log in, the theme on phones, log out. */
export default function AccountMenu() {
  const auth = useService<AuthService>(TOKENS.AuthService);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const passwordDialog = useService<PasswordDialogState>(PasswordDialogToken);
  const actions = useService<AccountActions>(AccountActionsToken);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const profile = useObservable(auth.profile$, null);
  const guest = profile?.is_tourist === 1;

  const content = (
    <div className="shell-popover" data-testid="account-popover">
      <div className="account-head">
        <div className="account-avatar">{profile?.avatar ? <img src={profile.avatar} alt="" /> : <Icon icon="person" size={20} />}</div>
        <div>
          <div className="account-name">{profile?.username ?? '…'}</div>
          <div className="account-meta" data-testid="account-meta">{guest ? <Tag minimal intent="warning">游客</Tag> : vipStatus(profile?.expire_time).text}</div>
        </div>
      </div>
      <div className="account-actions">
        {!guest && <Button alignText="start" variant="minimal" icon="key" text="修改密码" className="bp6-popover-dismiss" onClick={() => passwordDialog.open()} />}
        {!guest && <Button alignText="start" variant="minimal" icon="code" text="API 密钥" className="bp6-popover-dismiss" onClick={() => navigation.navigate(API_KEYS_ROUTE)} data-testid="account-api-keys" />}
        {guest ? (
          <Button alignText="start" variant="minimal" icon="log-in" text="立即登录" className="bp6-popover-dismiss" onClick={() => navigation.navigate(LOGIN_ROUTE, { state: '2' })} />
        ) : (
          <Button alignText="start" variant="minimal" icon="swap-horizontal" text="切换账号" className="bp6-popover-dismiss" onClick={() => void actions.logout()} />
        )}
        <Button
          alignText="start" variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} text={theme === 'dark' ? '切换到浅色主题' : '切换到深色主题'}
          className="phone-only" onClick={() => themes.toggle()} data-testid="account-theme-toggle"
        />
        <Button alignText="start" variant="minimal" intent="danger" icon="log-out" text="退出登录" className="bp6-popover-dismiss" onClick={() => void actions.logout()} />
      </div>
    </div>
  );

  return (
    <Popover content={content} placement="bottom-end">
      <Button variant="minimal" icon="user" endIcon="caret-down" text={<span className="account-button-name">{profile?.username ?? ''}</span>} aria-label="账号" className="account-button" data-testid="account-button" />
    </Popover>
  );
}
