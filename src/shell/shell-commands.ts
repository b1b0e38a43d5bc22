import { ContainerModule, inject, injectable } from 'inversify';
import {
  TOKENS, type Command, type CommandContribution, type RouteRegistry, type ScreenServices, type ThemeService,
} from '../core';
import { getDockApi, keepPanel, requestClose } from './dock-api';

/** The id of a 前往：… command is this prefix and the route path. */
export const NAV_COMMAND = 'nav.';

/** Keyboard sequences for the most used destinations (g, then a letter). */
const GO_KEYS: Record<string, string> = {
  '/home': 'g h',
  '/create': 'g c',
  '/multiples': 'g x',
  '/works': 'g w',
  '/profile': 'g p',
  '/clone': 'g v',
  '/material/index': 'g m',
  '/store': 'g s',
  '/consum': 'g $',
};

/** The focus is inside a dock nested in a page (a pane of /create), not on the page itself. */
function focusInNestedPane(): boolean {
  return Boolean((document.activeElement as HTMLElement | null)?.closest?.('.dock-panel .dv-groupview'));
}

@injectable()
export class ShellCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.ScreenServices) private readonly s: ScreenServices,
    @inject(TOKENS.RouteRegistry) private readonly routes: RouteRegistry,
    @inject(TOKENS.ThemeService) private readonly theme: ThemeService,
  ) {}

  commands(): Command[] {
    const goTo: Command[] = this.routes
      .all()
      .filter((r) => !r.standalone)
      .map((route) => ({
        id: `${NAV_COMMAND}${route.path}`,
        title: `前往：${route.title}`,
        section: '导航',
        keywords: `${route.path} go open 打开 ${route.title}`,
        icon: route.icon,
        keys: GO_KEYS[route.path] ? [GO_KEYS[route.path]!] : undefined,
        run: () => this.s.navigation.navigate(route.path),
      }));
    return [
      ...goTo,
      {
        id: 'workbench.toggleTheme',
        title: '切换深色/浅色主题',
        section: '外观',
        keywords: 'theme dark light 主题 深色 浅色',
        icon: 'contrast',
        keys: ['$mod+Shift+L'],
        run: () => this.theme.toggle(),
      },
      {
        id: 'workbench.splitRight',
        title: '向右拆分当前页面',
        section: '布局',
        keywords: 'split right dock 拆分 分栏',
        icon: 'column-layout',
        keys: ['$mod+Alt+\\'],
        run: () => this.split('right'),
      },
      {
        id: 'workbench.splitDown',
        title: '向下拆分当前页面',
        section: '布局',
        keywords: 'split down dock 拆分 分栏',
        icon: 'layout-two-rows',
        run: () => this.split('bottom'),
      },
      {
        id: 'workbench.closePanel',
        title: '关闭当前页面',
        section: '布局',
        keywords: 'close tab 关闭',
        icon: 'cross',
        keys: ['Alt+w'],
        // A pane inside a page (the panes of /create) has its own close: the page closes only when it has the focus itself.
        when: () => !focusInNestedPane(),
        run: () => requestClose(this.focusedPage()),
      },
      {
        id: 'workbench.keepPanel',
        title: '固定当前页面（不被下次导航替换）',
        section: '布局',
        keywords: 'pin keep tab preview 固定 保持',
        icon: 'pin',
        run: () => {
          keepPanel(this.focusedPage() ?? undefined);
        },
      },
      {
        id: 'workbench.resetLayout',
        title: '重置布局',
        section: '布局',
        keywords: 'reset layout 重置',
        icon: 'reset',
        run: () => {
          getDockApi()?.clear();
          this.s.navigation.navigate('/home', {}, { replace: true });
        },
      },
    ];
  }

  /** The page holding the focus, else the active one. */
  private focusedPage() {
    const api = getDockApi();
    const route = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.dock-panel[data-route]')?.dataset.route;
    return (route && api?.getPanel(route)) || api?.activePanel;
  }

  private split(position: 'right' | 'bottom'): void {
    const api = getDockApi();
    const panel = api?.activePanel;
    if (!api || !panel) return;
    if (panel.group.panels.length < 2) {
      this.s.notifier.info('再打开一个页面后即可拆分');
      return;
    }
    panel.api.moveTo({ group: panel.group, position });
  }
}

export const shellModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.CommandContribution).to(ShellCommands).inSingletonScope();
});
