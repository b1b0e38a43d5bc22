import type { ReactNode } from 'react';
import { Button, ProgressBar, type Intent } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { useValue } from '../../../core';
import { useCredits, useProfile } from './use-credits';
import { formatCredits, formatMb, percent, spaceRatio } from '../format';
import { Inline, POP_LOADING, TopButton, TopPopover } from './TopBarParts';

/** Storage space: used of total with a bar, and 扩容 (registered users, while the cap allows it). */
export function SpaceButton() {
  const { store, actions } = useCredits();
  const profile = useProfile();
  const remote = useValue(store.space$);
  const guest = profile?.is_tourist === 1;
  const space = 'value' in remote ? remote.value : undefined;

  let body: ReactNode;
  if (space) {
    const ratio = spaceRatio(space.used, space.total);
    const intent: Intent = ratio >= 0.9 ? 'danger' : ratio >= 0.75 ? 'warning' : 'primary';
    body = (
      <>
        <div className="credits-space-figures" data-testid="space-figures">
          <span>
            已用 <strong data-testid="space-used">{formatMb(space.used)}</strong>
          </span>
          <span className="credits-muted">
            共 <strong data-testid="space-total">{space.total_format}</strong>
          </span>
        </div>
        <ProgressBar value={ratio} intent={intent} animate={false} stripes={false} className="credits-space-bar" />
        <div className="credits-muted credits-space-percent">已使用 {percent(ratio)}</div>
        {guest ? (
          <Inline icon="lock">{MSG.guestCannotExpand}</Inline>
        ) : (
          <>
            <Button
              intent="primary"
              icon="add"
              fill
              text={`扩容 ${LIMITS.spaceExpandGb}GB`}
              disabled={space.can_expand === 0}
              className="bp6-popover-dismiss credits-space-expand"
              onClick={() => void actions.requestExpand()}
              data-testid="space-expand"
            />
            <div className="credits-muted credits-space-cost">
              {space.can_expand === 0 ? MSG.spaceExpandAtLimit : `每次扩容 ${LIMITS.spaceExpandGb}GB，消耗 ${formatCredits(LIMITS.spaceExpandCredits)} 积分`}
            </div>
          </>
        )}
      </>
    );
  } else if (remote.state === 'error') {
    body = <Inline icon="warning-sign">{remote.message}</Inline>;
  } else {
    body = POP_LOADING;
  }

  return (
    <TopPopover
      content={
        <div className="shell-popover credits-pop" data-testid="space-popover">
          <div className="credits-pop-title">存储空间</div>
          {body}
        </div>
      }
      onOpening={() => void actions.loadSpace()}
    >
      <TopButton icon="database" label="空间" ariaLabel="存储空间" testId="space-button" />
    </TopPopover>
  );
}
