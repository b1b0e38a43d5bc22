import { Suspense } from 'react';
import { Button, Tooltip } from '@blueprintjs/core';
import { useKBar } from 'kbar';
import { TOKENS, useContainer, useObservable, useService, type Navigation, type RouteRegistry, type ThemeService, type TopBarContribution } from '../core';
import { KeyHint } from './keys';

export function TopBar({ onMenu }: { onMenu: () => void }) {
  const container = useContainer();
  const items = container.getAll<TopBarContribution>(TOKENS.TopBarContribution, { optional: true }).slice().sort((a, b) => a.order - b.order);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const location = useObservable(navigation.location$, navigation.current);
  const { query } = useKBar();

  return (
    <header className="top-bar">
      <Button className="menu-button" variant="minimal" icon="menu" aria-label="打开导航" onClick={onMenu} />
      <div className="top-title">{routes.find(location.path)?.title ?? ''}</div>
      <button type="button" className="palette-trigger" onClick={() => query.toggle()} aria-label="打开命令面板">
        <span>搜索页面和命令</span>
        <KeyHint binding="$mod+k" />
      </button>
      <div className="top-actions">
        <Suspense fallback={null}>
          {items.map(({ id, component: Item }) => (
            <Item key={id} />
          ))}
        </Suspense>
        <Tooltip content={theme === 'dark' ? '切换到浅色主题' : '切换到深色主题'} placement="bottom">
          <Button variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label="切换主题" onClick={() => themes.toggle()} data-testid="theme-toggle" />
        </Tooltip>
      </div>
    </header>
  );
}
