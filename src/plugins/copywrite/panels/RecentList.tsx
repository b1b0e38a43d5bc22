/** The latest records beside the result: pick one to show it; the whole history is on /store/copywrite/trace. */
import { Spinner, Tag } from '@blueprintjs/core';
import { useStore, useValue } from '../../../core';
import type { CopywriteScreen } from '../copywrite-state';
import { isOpen, preview, recordTitle, statusOf, TRACE_ROUTE } from '../copywrite-view';

export function RecentList({ screen }: { screen: CopywriteScreen }) {
  const recent = useStore(screen.recent);
  const selected = useValue(screen.selected$);
  const list = recent.value?.list ?? [];
  return (
    <aside className="cw-recent" data-testid="copywrite-recent">
      <header className="cw-section-head">
        <h3>最近提取</h3>
        {recent.value && recent.value.total > list.length && (
          <a href={`#${TRACE_ROUTE}`} className="cw-more">
            全部 {recent.value.total} 条
          </a>
        )}
      </header>
      {list.length === 0 ? (
        <p className="cw-muted">{recent.loading ? '加载中…' : '还没有记录'}</p>
      ) : (
        <ul className="cw-recent-list">
          {list.map((r) => {
            const st = statusOf(r);
            return (
              <li key={r.id}>
                <button type="button" className={`cw-recent-item${r.id === selected ? ' active' : ''}`} onClick={() => screen.select(r.id)} data-testid="copywrite-recent-item">
                  <span className="cw-recent-title">{recordTitle(r)}</span>
                  <span className="cw-recent-meta">
                    {isOpen(r) ? <Spinner size={12} /> : null}
                    <Tag minimal round intent={st.intent}>
                      {st.text}
                    </Tag>
                    <span className="cw-recent-preview">{preview(r.text || r.reason || '', 24)}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </aside>
  );
}
