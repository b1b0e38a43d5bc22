import { Suspense, type ReactNode } from 'react';
import { Dialog, DialogBody, Icon, Spinner } from '@blueprintjs/core';
import { CloneAgreement, ConsentFooter, SafeHtml, useConsent, useService, useStore } from '../../../core';
import { CloneStateToken, type CloneState } from '../clone-state';

const DEFAULT_RULES = [
  '仅可克隆本人的声音，或已取得声音所有者书面授权的声音；',
  '不得使用克隆的声音冒充他人，或从事违法违规、侵害他人权益、误导公众的活动；',
  '使用克隆声音生成的内容须遵守平台规范，违规内容平台有权删除并停止服务。',
];

/** 声音克隆须知: the operator's usage rules (or the built-in ones), the payment notes, and the agreement to tick. */
export function NoticeDialog({ isOpen, onClose, onAgree }: { isOpen: boolean; onClose: () => void; onAgree: () => void }) {
  const clone = useService<CloneState>(CloneStateToken);
  const { agreed, setAgreed, next, forget } = useConsent(onAgree);
  // The operator's clone usage rules (site setting clone_usage, served as the clone agreement).
  const usage = useStore(clone.usage).value ?? null;

  return (
    <Dialog isOpen={isOpen} onClose={onClose} onClosed={forget} title="声音克隆须知" icon="info-sign" className="vc-dialog vc-notice-dialog">
      <DialogBody className="vc-notice-body">
        <NoticeSection icon="shield" title="使用规范">
          <div className="vc-notice-usage" data-testid="clone-usage">
            {usage === null ? (
              <Spinner size={20} />
            ) : usage.trim() ? (
              <Suspense fallback={<Spinner size={20} />}>
                <SafeHtml html={usage} className="vc-notice-html" />
              </Suspense>
            ) : (
              <ol className="vc-notice-list">
                {DEFAULT_RULES.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ol>
            )}
          </div>
        </NoticeSection>
        <NoticeSection icon="dollar" title="收费说明">
          <ul className="vc-notice-list plain" data-testid="clone-payment">
            <li>每次克隆按所选渠道的标价扣除积分，标价为 0 的渠道免费；</li>
            <li>渠道有免费次数时优先使用免费次数；</li>
            <li>克隆完成后的声音可在剩余次数内修改，确认后声音固定。</li>
          </ul>
        </NoticeSection>
        <CloneAgreement checked={agreed} onChange={setAgreed} className="vc-notice-check" testId="voice-notice-check" />
      </DialogBody>
      <ConsentFooter onClose={onClose} onNext={next} nextTestId="voice-notice-next" />
    </Dialog>
  );
}

function NoticeSection({ icon, title, children }: { icon: 'shield' | 'dollar'; title: string; children: ReactNode }) {
  return (
    <section className="vc-notice-section">
      <h4 className="vc-notice-title">
        <Icon icon={icon} size={14} />
        {title}
      </h4>
      {children}
    </section>
  );
}
