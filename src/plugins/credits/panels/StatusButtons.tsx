import { useEffect, useState } from 'react';
import { Icon, Tag, type Intent } from '@blueprintjs/core';
import { TOKENS, useObservable, useService, type SiteService } from '../../../core';
import { vipStatus } from '../format';
import { Inline, TopButton, TopPopover } from './TopBarParts';
import { useProfile } from './use-credits';

/** Membership from expire_time: valid until …, expired, or never opened. */
export function VipButton() {
  const profile = useProfile();
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

/** The site's QR code for the phone (popover width 240); no button when the operator set none, nor on a phone itself (credits.css). */
export function QrButton() {
  const sites = useService<SiteService>(TOKENS.SiteService);
  const site = useObservable(sites.site$, null);
  // Whether this picture failed to load: the image element's own state, so it stays here.
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
