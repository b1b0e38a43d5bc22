import { inject, injectable } from 'inversify';
import { LOGIN_ROUTE, MSG } from '../../contract';
import { TOKENS, commandTable, type Command, type CommandContribution, type ScreenServices } from '../../core';
import { PasswordDialogToken, type PasswordDialogState } from './account-state';

@injectable()
export class AccountActions implements CommandContribution {
  constructor(
    @inject(TOKENS.ScreenServices) private readonly s: ScreenServices,
    @inject(PasswordDialogToken) private readonly passwordDialog: PasswordDialogState,
  ) {}

  /** Logout removes the token on the server too, then goes to /login (part 1 §4). */
  async logout(): Promise<void> {
    await this.s.auth.logout().catch(() => undefined);
    this.s.notifier.success(MSG.logoutSucceeded);
    this.s.navigation.navigate(LOGIN_ROUTE);
  }

  commands(): Command[] {
    return commandTable('账号', [
      ['account.changePassword', '修改密码', 'key', 'password 密码 修改', () => this.passwordDialog.open()],
      ['account.logout', '退出登录', 'log-out', 'logout sign out 退出 登出', () => this.logout()],
    ]);
  }
}
