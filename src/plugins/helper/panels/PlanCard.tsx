import { Button, Tag } from '@blueprintjs/core';
import { HelperItemStatus, HelperPlanStatus, type HelperPlan } from '../../../contract';
import { useValue } from '../../../core';
import type { HelperScreen } from '../helper-state';

const ITEM_STATE: Record<number, { text: string; intent: 'none' | 'primary' | 'success' | 'danger' }> = {
  [HelperItemStatus.Waiting]: { text: '待执行', intent: 'none' },
  [HelperItemStatus.Running]: { text: '执行中', intent: 'primary' },
  [HelperItemStatus.Done]: { text: '已完成', intent: 'success' },
  [HelperItemStatus.Failed]: { text: '失败', intent: 'danger' },
  [HelperItemStatus.Cancelled]: { text: '已取消', intent: 'none' },
};

/** A plan: the confirmation card (what will run and its total price) until confirmed, then each item's state. */
export function PlanCard({ screen, plan }: { screen: HelperScreen; plan: HelperPlan }) {
  const busy = useValue(screen.busy$) === plan.id;
  const awaiting = plan.status === HelperPlanStatus.Awaiting;
  const made = plan.items.some((i) => i.call === 'works.create' && i.status === HelperItemStatus.Done);
  return (
    <div className={`helper-plan ${awaiting ? 'awaiting' : ''}`} data-testid="helper-plan">
      <div className="helper-plan-head">
        <strong>{awaiting ? '请确认以下操作' : plan.status === HelperPlanStatus.Cancelled ? '已取消' : plan.async ? '后台任务' : '操作结果'}</strong>
        <span className="helper-price" data-testid="helper-price">
          {plan.credits > 0 ? `预计 ${plan.credits} 积分` : '免费'}
        </span>
      </div>
      <ol className="helper-items">
        {plan.items.map((item) => (
          <li key={item.id} data-testid="helper-item">
            <div className="helper-item-row">
              <span className="helper-item-label">{item.label}</span>
              {item.credits > 0 && <span className="helper-item-price">{item.credits} 积分</span>}
              {!awaiting && (
                <Tag minimal intent={ITEM_STATE[item.status]?.intent} data-testid="helper-item-state">
                  {ITEM_STATE[item.status]?.text}
                </Tag>
              )}
              {!awaiting && plan.async === 1 && item.status === HelperItemStatus.Waiting && (
                <Button size="small" variant="minimal" text="取消" onClick={() => void screen.cancel(plan, item.id)} loading={busy} data-testid="helper-item-cancel" />
              )}
            </div>
            {item.result && <div className={`helper-item-result ${item.status === HelperItemStatus.Failed ? 'failed' : ''}`}>{item.result}</div>}
          </li>
        ))}
      </ol>
      {awaiting && (
        <div className="helper-plan-actions">
          <Button intent="primary" icon="tick" text={plan.credits > 0 ? `确认执行（${plan.credits} 积分）` : '确认执行'} loading={busy} onClick={() => void screen.confirm(plan)} data-testid="helper-confirm" />
          <Button text="不用了" disabled={busy} onClick={() => void screen.cancel(plan)} data-testid="helper-decline" />
          {plan.credits > 0 && <span className="helper-muted">按实际合成时长结算</span>}
        </div>
      )}
      {made && <Button variant="minimal" icon="media" text="去我的作品查看" onClick={() => screen.openWorks()} data-testid="helper-open-works" />}
    </div>
  );
}
