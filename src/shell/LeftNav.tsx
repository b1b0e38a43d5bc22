import { useEffect } from 'react';
import { Icon } from '@blueprintjs/core';
import { FALLBACK_SITE_TITLE, MSG, NAV_SECTIONS } from '../contract';
import { TOKENS, useObservable, useService, type Navigation, type RouteRegistry, type SiteService, type Storage } from '../core';
import { navIdFor } from './route-view';

const NAV_KEY = 'nav.active';

/**
 * Left navigation: 功能 / 视频 / 其他. The highlight follows the route (or the entry it lies under; none when no
 * page is open) and is remembered by nav id. An entry whose screen is not built carries 即将上线.
 */
export function LeftNav({ onNavigate }: { onNavigate?: () => void }) {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const storage = useService<Storage>(TOKENS.Storage);
  const siteService = useService<SiteService>(TOKENS.SiteService);
  const site = useObservable(siteService.site$, null);
  const location = useObservable(navigation.location$, navigation.current);

  const activeId = navIdFor(location.path, routes.all());
  useEffect(() => {
    if (activeId) storage.set(NAV_KEY, activeId);
  }, [activeId, storage]);

  const entries = routes.all().filter((r) => r.nav);
  return (
    <nav className="left-nav" aria-label="主导航">
      <div className="nav-brand">
        {site?.logo ? <img src={site.logo} alt="" className="nav-logo" /> : <Icon icon="person" size={20} className="nav-logo-icon" />}
        <span>{site?.site_title || FALLBACK_SITE_TITLE}</span>
      </div>
      {NAV_SECTIONS.map((section) => (
        <div key={section.id} className="nav-section">
          <div className="nav-section-title">{section.label}</div>
          {entries
            .filter((r) => r.nav!.section === section.id)
            .sort((a, b) => a.nav!.order - b.nav!.order)
            .map((r) => (
              <a
                key={r.path}
                href={`#${r.path}`}
                className={`nav-item${activeId === r.nav!.id ? ' active' : ''}`}
                data-nav-id={r.nav!.id}
                aria-current={activeId === r.nav!.id ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigation.navigate(r.path);
                  onNavigate?.();
                }}
              >
                <Icon icon={r.icon as never} size={16} />
                <span className="nav-item-title">{r.title}</span>
                {!routes.isBuilt(r.path) && <span className="soon-badge">{MSG.comingSoonPanel}</span>}
              </a>
            ))}
        </div>
      ))}
    </nav>
  );
}
