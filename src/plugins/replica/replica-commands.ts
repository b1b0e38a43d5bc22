import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { ACCOUNT_ROUTE, INDEX_ROUTE, PERSONAS_ROUTE, PRODUCTS_ROUTE, VIDEO_ROUTE } from './replica-view';

const SECTION = '超级复刻';

/** Palette commands: open each of the five screens. */
@injectable()
export class ReplicaCommands implements CommandContribution {
  constructor(@inject(TOKENS.Navigation) private readonly navigation: Navigation) {}

  commands(): Command[] {
    const open = (id: string, title: string, icon: string, keywords: string, route: string): Command => ({
      id: `replica.${id}`, title: `超级复刻：${title}`, section: SECTION, icon, keywords, run: () => this.navigation.navigate(route),
    });
    return [
      open('open', '选题与脚本', 'duplicate', 'replica topic script 复刻 选题 脚本', INDEX_ROUTE),
      open('video', '拆解爆款视频', 'video', 'replica viral video analysis mimic 爆款 拆解 仿写', VIDEO_ROUTE),
      open('account', '分析对标账号', 'person', 'replica account ip positioning 账号 定位 对标', ACCOUNT_ROUTE),
      open('personas', '我的人设', 'id-number', 'replica persona 人设', PERSONAS_ROUTE),
      open('products', '我的产品', 'shopping-cart', 'replica product 产品 商品', PRODUCTS_ROUTE),
    ];
  }
}
