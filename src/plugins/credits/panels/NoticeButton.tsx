import { useEffect, type ReactNode } from 'react';
import { Icon } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { formatDateTime, useValue } from '../../../core';
import { badgeText } from '../format';
import { Inline, POP_LOADING, TopButton, TopPopover } from './TopBarParts';
import { useCredits } from './use-credits';

/** The bell: unread count, and the notice list; a notice opens in a dialog (the server marks it read). */
export function NoticeButton() {
  const { store, actions } = useCredits();
  const open = useValue(store.noticeCentreOpen$);
  const remote = useValue(store.notices$);
  const list = 'value' in remote ? (remote.value ?? []) : [];
  const unread = list.filter((n) => n.read === 0).length;

  // Loaded with the workbench, and again whenever the tab comes back into view.
  useEffect(() => {
    const sub = actions.followNotices();
    return () => sub.unsubscribe();
  }, [actions]);

  let body: ReactNode;
  if ('value' in remote && remote.value) {
    body = list.length ? (
      <ul className="credits-notice-list" data-testid="notice-list">
        {list.map((n) => (
          <li key={n.id}>
            <button type="button" className={`credits-notice-item${n.read === 0 ? ' unread' : ''}`} onClick={() => actions.openNotice(n.id)} data-testid="notice-item" data-notice-id={n.id}>
              <span className="credits-notice-dot" aria-label={n.read === 0 ? '未读' : undefined} />
              <span className="credits-notice-main">
                <span className="credits-notice-title">{n.title}</span>
                {n.desc && <span className="credits-notice-desc">{n.desc}</span>}
                <span className="credits-notice-time">{formatDateTime(n.create_time)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    ) : (
      <div className="credits-empty-small" data-testid="notice-empty">
        <Icon icon="notifications" size={28} />
        <span>{MSG.noNotices}</span>
      </div>
    );
  } else if (remote.state === 'error') {
    body = <Inline icon="warning-sign">{remote.message}</Inline>;
  } else {
    body = POP_LOADING;
  }

  const content = (
    <div className="shell-popover credits-pop credits-notice-pop" data-testid="notice-popover">
      <div className="credits-pop-title credits-notice-head">
        <span>公告</span>
        {unread > 0 && <span className="credits-muted">{unread} 条未读</span>}
      </div>
      {body}
    </div>
  );

  return (
    <TopPopover
      content={content}
      isOpen={open}
      onInteraction={(next) => {
        store.noticeCentreOpen$.next(next);
        if (next) void actions.loadNotices();
      }}
    >
      <TopButton icon="notifications" ariaLabel={unread ? `公告，${unread} 条未读` : '公告'} testId="notice-button" badge={badgeText(unread)} className="credits-notice-button" />
    </TopPopover>
  );
}
