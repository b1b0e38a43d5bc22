import type { ReactElement, ReactNode } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, NonIdealState, Spinner, type IconName } from '@blueprintjs/core';
import './pickers.css';

/** A picker's list before it can show rows: a spinner on the first load, the error with a retry; else null. */
export function pickerPending(remote: { loading: boolean; value: unknown; error: string | null | undefined; reload(): void }): ReactElement | null {
  if (remote.loading && !remote.value) {
    return (
      <div className="mu-center">
        <Spinner size={24} />
      </div>
    );
  }
  if (remote.error) {
    return <NonIdealState icon="error" description={remote.error} action={<Button text="重新加载" icon="refresh" onClick={remote.reload} />} className="mu-empty" />;
  }
  return null;
}

export interface PickerDialogProps {
  isOpen: boolean;
  title: string;
  icon: IconName;
  className: string;
  /** The prefix of its buttons' test ids (`<prefix>-cancel`, `<prefix>-confirm`). */
  testId: string;
  /** The dialog's own test id, where a spec looks for it. */
  dialogTestId?: string;
  /** The tabs above the list. */
  bar: ReactNode;
  /** The list before it can show rows (pickerPending). */
  pending: ReactElement | null;
  /** What an empty list says (null: the list has rows). */
  empty: { icon: IconName; description: string } | null;
  /** The rows. */
  children: ReactNode;
  onClose: () => void;
  onConfirm: () => void;
  confirmDisabled?: boolean;
  /** Beside the buttons (所有场景使用). */
  footer?: ReactNode;
}

/** A picker's dialog (选择声音, 选择数字人): its tabs, its list (spinner, error, empty or rows) and 取消 and 确定. */
export function PickerDialog({ isOpen, title, icon, className, testId, dialogTestId, bar, pending, empty, children, onClose, onConfirm, confirmDisabled, footer }: PickerDialogProps) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} icon={icon} className={`mu-dialog ${className}`} data-testid={dialogTestId}>
      <DialogBody className="mu-dialog-body">
        <div className="mu-dialog-bar">{bar}</div>
        <div className="mu-picker-scroll">{pending ? pending : empty ? <NonIdealState icon={empty.icon} description={empty.description} className="mu-empty" /> : children}</div>
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="cancel" text="取消" onClick={onClose} data-testid={`${testId}-cancel`} />,
          <Button key="ok" intent="primary" text="确定" disabled={confirmDisabled} onClick={onConfirm} data-testid={`${testId}-confirm`} />,
        ]}
      >
        {footer}
      </DialogFooter>
    </Dialog>
  );
}
