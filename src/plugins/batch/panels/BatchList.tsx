/** 我的批次: recent batches with their counts; one opens its page. */
import { Tag } from '@blueprintjs/core';
import { useStore } from '../../../core';
import type { BatchScreen } from '../batch-state';

export function BatchList({ screen }: { screen: BatchScreen }) {
  const list = useStore(screen.batches).value?.list ?? [];
  if (!list.length) return null;
  return (
    <section className="tool-card" data-testid="batch-list">
      <header className="bat-card-head"><h3>我的批次</h3></header>
      <ul className="bat-batches">
        {list.map((b) => (
          <li key={b.id}>
            <button type="button" className="bat-batch" onClick={() => screen.openBatch(b.id)} data-testid="batch-list-item">
              <span className="bat-batch-name">{b.name}</span>
              <span className="bat-note">{b.create_time} · 共 {b.total} 条</span>
              <Tag minimal intent="success">完成 {b.counts.done}</Tag>
              {b.counts.failed > 0 && <Tag minimal intent="danger">失败 {b.counts.failed}</Tag>}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
