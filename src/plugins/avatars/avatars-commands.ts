import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { AvatarsStateToken, type AvatarsState } from './avatars-state';

export const PROFILE_ROUTE = '/profile';
export const PUBLIC_ROUTE = '/gProfile';

/** Palette commands of the avatars plugin (the shell already lists plain 前往：我的数字人 / 公共数字人). */
@injectable()
export class AvatarsCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(AvatarsStateToken) private readonly state: AvatarsState,
  ) {}

  commands(): Command[] {
    return [
      {
        id: 'avatars.clone',
        title: '克隆数字人',
        section: '数字人',
        keywords: 'clone avatar upload 克隆 数字人 上传 定制',
        icon: 'new-person',
        run: () => {
          this.navigation.navigate(PROFILE_ROUTE);
          this.state.openClone();
        },
      },
      {
        id: 'avatars.refresh',
        title: '刷新我的数字人',
        section: '数字人',
        keywords: 'refresh avatar 刷新 数字人 克隆进度',
        icon: 'refresh',
        run: () => {
          this.navigation.navigate(PROFILE_ROUTE);
          this.state.notifyChanged();
        },
      },
    ];
  }
}
