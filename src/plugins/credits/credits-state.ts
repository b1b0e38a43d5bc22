import { injectable } from 'inversify';
import { BehaviorSubject, Subject } from 'rxjs';
import type { NoticeSummary, Space } from '../../contract';
import type { Remote } from '../../core';

export const CreditsStoreToken = Symbol.for('credits.Store');
export const CreditsActionsToken = Symbol.for('credits.Actions');


/**
 * The plugin's shared state: which of its dialogs and popovers are open (commands and buttons both open
 * them), the last space, notice list and points rules the server gave, and a signal that credits changed.
 */
@injectable()
export class CreditsStore {
  /** The redeem-code dialog. */
  readonly redeemOpen$ = new BehaviorSubject(false);
  /** The space-expansion confirmation. */
  readonly expandOpen$ = new BehaviorSubject(false);
  /** The notice centre popover. */
  readonly noticeCentreOpen$ = new BehaviorSubject(false);
  /** The notice shown in the detail dialog. */
  readonly noticeDetail$ = new BehaviorSubject<number | null>(null);

  readonly space$ = new BehaviorSubject<Remote<Space>>({ state: 'idle' });
  readonly notices$ = new BehaviorSubject<Remote<NoticeSummary[]>>({ state: 'idle' });
  /** The operator's points rules (HTML) shown in the points popover; asked for until once read. */
  readonly rule$ = new BehaviorSubject<Remote<string>>({ state: 'idle' });

  /** Emits after a redemption or an expansion: views that show credits or logs reload. */
  readonly changed$ = new Subject<void>();
}
