import { Spinner, Tag } from '@blueprintjs/core';
import { WorkStatus } from '../../../contract';
import { useStore } from '../../../core';
import type { TranslationScreen } from '../translation-state';

/** 最近的翻译: the five latest with their state and, when there is one, why it failed or the voice used. */
export function RecentTranslations({ screen }: { screen: TranslationScreen }) {
  const recent = useStore(screen.recent);
  const list = recent.value?.list ?? [];
  if (list.length === 0) return null;
  return (
    <section className="tr-recent" data-testid="translation-recent">
      <h3>最近的翻译</h3>
      {list.map((r) => (
        <div key={r.id} className="tr-record" data-testid="translation-record" data-status={r.status}>
          <span className="tr-record-name" title={r.name}>{r.name}</span>
          {r.status === WorkStatus.Success ? (
            <Tag intent="success" minimal round icon="tick">已完成</Tag>
          ) : r.status === WorkStatus.Failed ? (
            <Tag intent="danger" minimal round icon="error" title={r.reason}>失败</Tag>
          ) : (
            <Tag intent="primary" minimal round icon={<Spinner size={12} />}>翻译中</Tag>
          )}
          {r.reason && <span className="tr-record-reason" data-testid="translation-reason">{r.reason}</span>}
          {r.status === WorkStatus.Success && r.voice && <span className="tr-record-reason" data-testid="translation-voice">{r.voice}</span>}
        </div>
      ))}
    </section>
  );
}
