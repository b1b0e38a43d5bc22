import { Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Icon, Popover, ProgressBar, Spinner, Tag, type IconName, type Intent, type PopoverProps } from '@blueprintjs/core';
import { API, LIMITS, MSG } from '../../../contract';
import { SafeHtml, TOKENS, formatDateTime, useObservable, useService, type ApiClient, type AuthService, type Navigation, type Remote, type SiteService } from '../../../core';
import { CreditsActionsToken, CreditsStoreToken, type CreditsStore } from '../credits-state';
import type { CreditsActions } from '../credits-actions';
import { badgeText, formatCredits, formatMb, percent, spaceRatio, vipStatus } from '../format';
import '../credits.css';

/** A top-bar button: icon always (with an optional count badge), text label from tablet width up (credits.css hides it on phones). */
function TopButton({ icon, label, testId, ariaLabel, className, badge }: { icon: IconName; label?: ReactNode; testId: string; ariaLabel: string; className?: string; badge?: string }) {
  return (
    <Button
      variant="minimal"
      icon={
        <span className="credits-top-icon">
          <Icon icon={icon} />
          {badge && <span className="credits-badge" data-testid={`${testId}-badge`}>{badge}</span>}
        </span>
      }
      className={`credits-top-button${className ? ` ${className}` : ''}`}
      aria-label={ariaLabel}
      data-testid={testId}
      text={label ? <span className="credits-top-label">{label}</span> : undefined}
    />
  );
}

/** Popovers keep 8 px from the screen edges (phones). */
const MODIFIERS = { preventOverflow: { options: { padding: 8 } } };

const POP_LOADING = (
  <div className="credits-pop-loading">
    <Spinner size={20} />
  </div>
);

/** A top-bar item's popover: below its button, aligned to the right edge, clear of the screen edges. */
function TopPopover(props: PopoverProps) {
  return <Popover placement="bottom-end" modifiers={MODIFIERS} {...props} />;
}

function Inline({ children, icon = 'info-sign' }: { children: ReactNode; icon?: IconName }) {
  return (
    <div className="credits-inline-note">
      <Icon icon={icon} size={14} />
      <span>{children}</span>
    </div>
  );
}

// ------------------------------------------------------------------ points

/** Points popover: balance, 兑换, links to /consum and /moreCredits, and the operator's points rules. */
export function PointsButton() {
  const auth = useService<AuthService>(TOKENS.AuthService);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const actions = useService<CreditsActions>(CreditsActionsToken);
  const profile = useObservable(auth.profile$, null);
  const credits = profile?.credits ?? 0;
  const [rule, setRule] = useState<Remote<string>>({ state: 'idle' });
  const loading = useRef(false);

  const loadRule = useCallback(() => {
    if (loading.current || rule.state === 'ok') return;
    loading.current = true;
    setRule({ state: 'loading' });
    api
      .call(API.credits.rule, {}, { silent: true })
      .then((r) => setRule({ state: 'ok', value: r.content }))
      .catch((err: Error) => setRule({ state: 'error', message: err.message }))
      .finally(() => (loading.current = false));
  }, [api, rule.state]);

  const content = (
    <div className="shell-popover credits-pop" data-testid="points-popover">
      <div className="credits-pop-title">我的积分</div>
      <div className="credits-balance-row">
        <div className="credits-balance" data-testid="points-balance">
          {formatCredits(credits)}
          <span className="credits-balance-unit">积分</span>
        </div>
        <Button intent="primary" icon="exchange" text="兑换" className="bp6-popover-dismiss" onClick={() => actions.openRedeem()} data-testid="points-redeem" />
      </div>
      <div className="credits-pop-links">
        <Button variant="minimal" icon="timeline-bar-chart" text="消费中心" endIcon="chevron-right" alignText="start" className="bp6-popover-dismiss" onClick={() => navigation.navigate('/consum')} />
        <Button variant="minimal" icon="th-list" text="积分明细" endIcon="chevron-right" alignText="start" className="bp6-popover-dismiss" onClick={() => navigation.navigate('/moreCredits')} />
      </div>
      {(rule.state === 'loading' || (rule.state === 'ok' && rule.value.trim() !== '')) && (
        <div className="credits-rule" data-testid="points-rule">
          <div className="credits-section-title">积分规则</div>
          <Suspense fallback={<Spinner size={16} />}>
            {rule.state === 'ok' ? <SafeHtml html={rule.value} className="credits-html credits-rule-body" /> : <Spinner size={16} />}
          </Suspense>
        </div>
      )}
      {rule.state === 'error' && <Inline>{rule.message}</Inline>}
    </div>
  );

  return (
    <TopPopover
      content={content}
      onOpening={() => {
        loadRule();
        void auth.refreshProfile().catch(() => undefined);
      }}
    >
      <TopButton icon="dollar" label={formatCredits(credits)} ariaLabel={`积分 ${credits}`} testId="points-button" className="credits-points-button" />
    </TopPopover>
  );
}

// ------------------------------------------------------------------ membership

/** Membership from expire_time: valid until …, expired, or never opened. */
export function VipButton() {
  const auth = useService<AuthService>(TOKENS.AuthService);
  const profile = useObservable(auth.profile$, null);
  const status = vipStatus(profile?.expire_time);
  const tag: Record<typeof status.kind, { intent: Intent; text: string }> = {
    active: { intent: 'warning', text: '会员' },
    expired: { intent: 'none', text: '已过期' },
    none: { intent: 'none', text: '未开通' },
  };

  const content = (
    <div className="shell-popover credits-pop" data-testid="vip-popover">
      <div className="credits-vip-head">
        <div className={`credits-vip-icon ${status.kind}`}>
          <Icon icon="crown" size={20} />
        </div>
        <div>
          <div className="credits-pop-title">
            会员状态 <Tag minimal round intent={tag[status.kind].intent}>{tag[status.kind].text}</Tag>
          </div>
          <div className="credits-vip-text" data-testid="vip-status">{status.text}</div>
        </div>
      </div>
      {status.kind === 'expired' && <div className="credits-muted">会员到期于 {status.until}</div>}
    </div>
  );

  return (
    <TopPopover content={content}>
      <TopButton icon="crown" label="会员" ariaLabel="会员状态" testId="vip-button" className={`credits-vip-button ${status.kind}`} />
    </TopPopover>
  );
}

// ------------------------------------------------------------------ space

/** Storage space: used of total with a bar, and 扩容 (registered users, while the cap allows it). */
export function SpaceButton() {
  const auth = useService<AuthService>(TOKENS.AuthService);
  const store = useService<CreditsStore>(CreditsStoreToken);
  const actions = useService<CreditsActions>(CreditsActionsToken);
  const profile = useObservable(auth.profile$, null);
  const remote = useObservable(store.space$, store.space$.value);
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

// ------------------------------------------------------------------ mobile QR

/** The site's QR code for the phone (popover width 240); no button when the operator set none, nor on a phone itself (credits.css). */
export function QrButton() {
  const sites = useService<SiteService>(TOKENS.SiteService);
  const site = useObservable(sites.site$, null);
  const [broken, setBroken] = useState(false);
  const qrcode = site?.qrcode?.trim() ?? '';
  useEffect(() => setBroken(false), [qrcode]);
  if (!qrcode) return null;

  const content = (
    <div className="shell-popover qr credits-qr" data-testid="qr-popover">
      <div className="credits-pop-title">手机访问</div>
      {broken ? <Inline icon="warning-sign">二维码加载失败</Inline> : <img src={qrcode} alt="手机扫码访问" className="credits-qr-image" onError={() => setBroken(true)} />}
      <div className="credits-muted credits-qr-caption">使用手机扫码，随时随地创作</div>
    </div>
  );

  return (
    <TopPopover content={content} className="credits-qr-target">
      <TopButton icon="mobile-phone" label="手机版" ariaLabel="手机访问二维码" testId="qr-button" />
    </TopPopover>
  );
}

// ------------------------------------------------------------------ notices

/** The bell: unread count, and the notice list; a notice opens in a dialog (the server marks it read). */
export function NoticeButton() {
  const store = useService<CreditsStore>(CreditsStoreToken);
  const actions = useService<CreditsActions>(CreditsActionsToken);
  const open = useObservable(store.noticeCentreOpen$, false);
  const remote = useObservable(store.notices$, store.notices$.value);
  const list = 'value' in remote ? (remote.value ?? []) : [];
  const unread = list.filter((n) => n.read === 0).length;

  // Loaded with the workbench, and again whenever the tab comes back into view (new notices, reads elsewhere).
  useEffect(() => {
    void actions.loadNotices();
    const onVisible = () => document.visibilityState === 'visible' && void actions.loadNotices();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
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
