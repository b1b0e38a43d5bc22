/** Dialogs and their parts several features share: rename an item, confirm an action or a delete, an upload's requirements. Each feature passes its own words and test ids. */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Icon, type IconName, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG } from '../contract';
import type { BehaviorSubject } from 'rxjs';
import { TOKENS, type Notifier } from './tokens';
import { useService } from './react';
import type { Deletion } from './action';
import { useDeletionFlow, useValue } from './screen-hooks';
import type { DeletionFlow } from './screen-state';

export interface RenameDialogProps<T extends { name: string }> {
  /** The item being renamed; null closes the dialog. */
  item: T | null;
  title: string;
  label: string;
  inputId: string;
  className?: string;
  inputTestId?: string;
  saveTestId?: string;
  onClose: () => void;
  /** Resolves true when saved (the dialog then closes). */
  onSave: (item: T, name: string) => Promise<boolean>;
}

/** An empty name gets the spec's message (请填写名称后保存). */
export function RenameDialog<T extends { name: string }>(props: RenameDialogProps<T>) {
  const { item, onClose, onSave } = props;
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [name, setName] = useState(item?.name ?? '');
  const [busy, setBusy] = useState(false);
  // The item's name is in the input from the dialog's first frame (set while rendering, not in an effect after it),
  // so what the user types at once is never overwritten.
  const [shown, setShown] = useState(item);
  if (item !== shown) {
    setShown(item);
    if (item) setName(item.name);
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    if (!name.trim()) {
      notifier.warn(MSG.renameNameRequired);
      return;
    }
    setBusy(true);
    const ok = await onSave(item, name.trim());
    setBusy(false);
    if (ok) onClose();
  };

  return (
    <Dialog isOpen={item !== null} onClose={onClose} title={props.title} icon="edit" className={props.className}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <FormGroup label={props.label} labelFor={props.inputId}>
            <InputGroup id={props.inputId} value={name} onValueChange={setName} maxLength={LIMITS.nameMaxChars} placeholder={`请输入${props.label}`} autoFocus data-testid={props.inputTestId} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={[<Button key="c" text="取消" onClick={onClose} />, <Button key="s" type="submit" intent="primary" text="保存" loading={busy} data-testid={props.saveTestId} />]} />
      </form>
    </Dialog>
  );
}

export interface ConfirmAlertProps {
  isOpen: boolean;
  busy: boolean;
  icon: IconName;
  intent: 'primary' | 'danger';
  title: ReactNode;
  text: ReactNode;
  confirmText: string;
  /** Prefix of the alert's classes: `<prefix>-alert`, `<prefix>-alert-title`, `<prefix>-alert-text`. */
  classPrefix: string;
  /** More classes on the alert, for a panel's own look or a journey's selector. */
  className?: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A question before an action that costs or destroys something: a title, a line of what follows, 取消 and the action. */
export function ConfirmAlert(props: ConfirmAlertProps) {
  return (
    <Alert
      isOpen={props.isOpen}
      icon={props.icon}
      intent={props.intent}
      cancelButtonText="取消"
      confirmButtonText={props.confirmText}
      loading={props.busy}
      onCancel={props.onCancel}
      onConfirm={props.onConfirm}
      className={`${props.classPrefix}-alert ${props.className ?? ''}`.trim()}
    >
      <p className={`${props.classPrefix}-alert-title`}>{props.title}</p>
      <p className={`${props.classPrefix}-alert-text`}>{props.text}</p>
    </Alert>
  );
}

export interface ConfirmDeleteProps {
  /** The list's deletion (useDeletion): open while it has a target. */
  deletion: Pick<Deletion<unknown>, 'target' | 'busy' | 'cancel' | 'confirm'>;
  title: string;
  text: string;
  confirmText?: string;
  classPrefix: string;
}

export function ConfirmDelete({ deletion, title, text, confirmText = '删除', classPrefix }: ConfirmDeleteProps) {
  return (
    <ConfirmAlert
      isOpen={deletion.target !== null}
      busy={deletion.busy}
      icon="trash"
      intent="danger"
      title={title}
      text={text}
      confirmText={confirmText}
      classPrefix={classPrefix}
      onCancel={deletion.cancel}
      onConfirm={deletion.confirm}
    />
  );
}

export interface RequirementListProps {
  title: string;
  /** Each line with its icon; a tip reads apart from the rules. */
  items: readonly { icon: IconName; text: string; tip?: boolean }[];
  /** Prefix of the classes: `<prefix>-requirements`, `<prefix>-requirements-title`. */
  classPrefix: string;
  testId: string;
}

/** What an upload must be (a clone's video or audio), listed before the upload box. */
export function RequirementList({ title, items, classPrefix, testId }: RequirementListProps) {
  return (
    <div className={`${classPrefix}-requirements`} data-testid={testId}>
      <div className={`${classPrefix}-requirements-title`}>{title}</div>
      <ul>
        {items.map((r) => (
          <li key={r.text} className={r.tip ? 'tip' : undefined}>
            <Icon icon={r.icon} size={14} />
            <span>{r.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface AudioPreviewProps {
  /** The record the player is for: another record starts a fresh player. */
  id: number;
  src: string;
  /** The player's box and the round music badge above the player (each screen styles its own). */
  className: string;
  iconClassName: string;
  testId: string;
}

/** The audio a preview dialog plays (a material, a multi-scene audio work): a music badge over a player that starts at once. */
export function AudioPreview({ id, src, className, iconClassName, testId }: AudioPreviewProps) {
  return (
    <div className={className}>
      <span className={iconClassName}>
        <Icon icon="music" size={28} />
      </span>
      <audio key={id} src={src} controls autoPlay data-testid={testId} />
    </div>
  );
}

/** What a generation screen (image, video, music) holds for its two questions. */
export interface GenerationScreen<T> {
  /** The price's confirmation is open. */
  confirming$: BehaviorSubject<boolean>;
  deletion: DeletionFlow<T>;
  cancelConfirm(): void;
}

export interface GenerationConfirmsProps<T> {
  screen: GenerationScreen<T>;
  busy: boolean;
  /** The price's question: its icon, title, what it costs, the button, and what the button does. */
  generate: Pick<ConfirmAlertProps, 'icon' | 'title' | 'text' | 'confirmText' | 'className' | 'onConfirm'>;
  /** The question before a record is deleted. */
  remove: Pick<ConfirmDeleteProps, 'title' | 'text'>;
  classPrefix: string;
}

/**
 * The two questions every generation screen asks, the same way on each: the price before it generates (取消 closes
 * it through the screen), and the delete of a record of its history.
 */
export function GenerationConfirms<T>({ screen, busy, generate, remove, classPrefix }: GenerationConfirmsProps<T>) {
  const confirming = useValue(screen.confirming$);
  const deletion = useDeletionFlow(screen.deletion);
  return (
    <>
      <ConfirmAlert isOpen={confirming} busy={busy} intent="primary" classPrefix={classPrefix} onCancel={() => screen.cancelConfirm()} {...generate} />
      <ConfirmDelete deletion={deletion} {...remove} classPrefix={classPrefix} />
    </>
  );
}
