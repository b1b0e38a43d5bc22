/** The consent step both clone flows (avatar and voice) open with: the agreement checkbox and the two footer buttons. */
import { useState } from 'react';
import { Button, Checkbox, DialogFooter } from '@blueprintjs/core';
import { MSG } from '../contract';
import { useService } from './react';
import { TOKENS, type Notifier } from './tokens';

/** The consent step's state: the box, and 继续 that warns until it is ticked; `forget` when the dialog has closed. */
export function useConsent(onAgree: () => void) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [agreed, setAgreed] = useState(false);
  const next = () => {
    if (!agreed) {
      notifier.warn(MSG.cloneConsentRequired);
      return;
    }
    onAgree();
  };
  return { agreed, setAgreed, next, forget: () => setAgreed(false) };
}

export interface CloneAgreementProps {
  checked: boolean;
  onChange(checked: boolean): void;
  className: string;
  testId: string;
}

/** 我已阅读并同意《本平台音色克隆使用规范》 (the rules open in a new tab without ticking the box). */
export function CloneAgreement({ checked, onChange, className, testId }: CloneAgreementProps) {
  return (
    <Checkbox checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} className={className} data-testid={testId}>
      我已阅读并同意
      <a href="#/protocol?type=clone" target="_blank" rel="noopener" onClick={(e) => e.stopPropagation()}>
        《本平台音色克隆使用规范》
      </a>
    </Checkbox>
  );
}

/** 取消 / 同意并继续 */
export function ConsentFooter({ onClose, onNext, nextTestId }: { onClose(): void; onNext(): void; nextTestId: string }) {
  return (
    <DialogFooter
      actions={[
        <Button key="cancel" text="取消" onClick={onClose} />,
        <Button key="next" intent="primary" text="同意并继续" onClick={onNext} data-testid={nextTestId} />,
      ]}
    />
  );
}
