import { injectable } from 'inversify';
import { BehaviorSubject } from 'rxjs';

export const PasswordDialogToken = Symbol.for('account.PasswordDialog');
export const AccountActionsToken = Symbol.for('account.Actions');

/** Whether the change-password dialog is open; the command and the popover both open it. */
@injectable()
export class PasswordDialogState {
  readonly open$ = new BehaviorSubject(false);
  open() {
    this.open$.next(true);
  }
  close() {
    this.open$.next(false);
  }
}
