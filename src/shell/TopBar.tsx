import { Button, Icon, Menu, MenuItem, Popover, Tooltip } from '@blueprintjs/core';
import { useKBar } from 'kbar';
import { TOKENS, useContainer, useObservable, useService, type Navigation, type RouteRegistry, type ThemeService, type TopBarContribution } from '../core';
import { ContributedParts } from './ContributedParts';
import { getDockApi, openPages$, requestClose } from './dock-api';
import { KeyHint } from './keys';
import { pageTitle } from './route-view';

/**
 * The page's title. On phones the tab strip is hidden (it would take a whole row), so the title opens the list of
 * open pages: switch to one, or close it.
 */
function PageTitle({ title }: { title: string }) {
  const pages = useObservable(openPages$, []);
  const list = (
    <Menu aria-label="打开的页面" data-testid="open-pages">
      {pages.map((p) => (
        <MenuItem
          key={p.id}
          text={p.title}
          active={p.active}
          onClick={() => getDockApi()?.getPanel(p.id)?.api.setActive()}
          labelElement={
            <Button
              size="small"
              variant="minimal"
              icon="cross"
              aria-label={`关闭 ${p.title}`}
              onClick={(e) => {
                e.stopPropagation();
                requestClose(getDockApi()?.getPanel(p.id));
              }}
            />
          }
        />
      ))}
    </Menu>
  );
  return (
    <>
      <h1 className="top-title" data-testid="top-title">{title}</h1>
      <div className="top-title-switcher">
        <Popover content={list} placement="bottom-start" disabled={pages.length === 0}>
          <Button variant="minimal" endIcon="caret-down" text={title || '没有打开的页面'} className="top-title-button" data-testid="top-title-button" />
        </Popover>
      </div>
    </>
  );
}

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
      <PageTitle title={pageTitle(location.path, location.query, routes.find(location.path))} />
      <button type="button" className="palette-trigger" onClick={() => query.toggle()} aria-label="打开命令面板">
        <Icon icon="search" size={14} />
        <span className="palette-trigger-text">搜索页面和命令</span>
        <KeyHint binding="$mod+k" />
      </button>
      <div className="top-actions">
        <ContributedParts parts={items} />
        {/* On phones the theme is in the account menu (and the palette): the bar's room goes to the title and the balance. */}
        <span className="theme-toggle">
          <Tooltip content={theme === 'dark' ? '切换到浅色主题' : '切换到深色主题'} placement="bottom">
            <Button variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label="切换主题" onClick={() => themes.toggle()} data-testid="theme-toggle" />
          </Tooltip>
        </span>
      </div>
    </header>
  );
}
