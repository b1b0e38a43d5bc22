import { useEffect, useRef, type ReactNode } from 'react';
import { Icon, type IconName } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { TOKENS, useService, type Navigation, type Notifier, type PanelProps, type RouteRegistry } from '../../../core';
import { STORE_BANNERS, STORE_SECTIONS, type StoreTool } from '../tools';
import './store.css';

function SoonBadge() {
  return (
    <span className="soon-badge" data-testid="soon-badge">
      {MSG.comingSoonPanel}
    </span>
  );
}

/** A banner's or a card's words: its title (with 即将上线 when `soon`) and its line, then what else it shows there. */
function EntryText({ kind, entry, soon, children }: { kind: 'banner' | 'card'; entry: { title: string; description: string }; soon: boolean; children?: ReactNode }) {
  return (
    <span className={`store-${kind}-text`}>
      <span className={`store-${kind}-title`}>
        {entry.title}
        {soon && <SoonBadge />}
      </span>
      <span className={`store-${kind}-desc`}>{entry.description}</span>
      {children}
    </span>
  );
}

/**
 * /store: banners for pet video and photo speak, then the tool sections; every card opens its route. A card or
 * banner whose screen this build does not have yet carries 即将上线 (RouteRegistry.isBuilt, so it goes by itself).
 */
export default function StorePanel({ query }: PanelProps) {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const unbuilt = (tool: { path?: string }) => !tool.path || !routes.isBuilt(tool.path);
  const sections = useRef(new Map<string, HTMLElement>());

  // /store?section=… (the palette's 创作商店：… commands) scrolls to that section.
  useEffect(() => {
    if (!query.section) return;
    const el = sections.current.get(query.section);
    if (!el) return;
    el.scrollIntoView({ behavior: 'smooth', block: 'start' });
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
  }, [query.section]);

  const open = (tool: StoreTool) => {
    if (tool.comingSoon || !tool.path) notifier.info(MSG.comingSoon);
    else navigation.navigate(tool.path);
  };

  return (
    <div className="store-panel" data-testid="store-panel">
      <div className="store-inner">
        <header className="store-header">
          <h1>创作商店</h1>
          <p>文案、图片、视频与音频工具，一站式完成短视频创作。</p>
        </header>

        <div className="store-banners">
          {STORE_BANNERS.map((banner) => (
            <button key={banner.path} type="button" className={`store-banner ${banner.tone}`} onClick={() => navigation.navigate(banner.path)} data-testid="store-banner" data-path={banner.path}>
              <EntryText kind="banner" entry={banner} soon={unbuilt(banner)}>
                <span className="store-banner-cta">
                  立即体验 <Icon icon="arrow-right" size={14} />
                </span>
              </EntryText>
              <span className="store-banner-art" aria-hidden>
                <Icon icon={banner.icon as IconName} size={44} />
              </span>
            </button>
          ))}
        </div>

        {STORE_SECTIONS.map((section) => (
          <section
            key={section.id}
            className="store-section"
            data-section={section.id}
            ref={(el) => {
              if (el) sections.current.set(section.id, el);
              else sections.current.delete(section.id);
            }}
          >
            <h2 className="store-section-title">
              <Icon icon={section.icon as IconName} size={16} />
              {section.title}
            </h2>
            <div className="store-grid">
              {section.tools.map((tool) => (
                <button
                  key={tool.title}
                  type="button"
                  className={`store-card${tool.comingSoon ? ' soon' : ''}`}
                  onClick={() => open(tool)}
                  data-testid="store-card"
                  data-path={tool.path ?? ''}
                >
                  <span className="store-card-icon">
                    <Icon icon={tool.icon as IconName} size={20} />
                  </span>
                  <EntryText kind="card" entry={tool} soon={unbuilt(tool)} />
                  {!tool.comingSoon && <Icon icon="chevron-right" size={16} className="store-card-go" />}
                </button>
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
