import { injectable } from 'inversify';
import { BehaviorSubject, Subject } from 'rxjs';

export const AvatarsStateToken = Symbol.for('avatars.State');

/** Where the clone flow is (part 1 §4: consent, then name and upload, then start). */
export type CloneStep = 'closed' | 'consent' | 'form';

/** Shared by the panels, the clone dialogs (mounted at the workbench root) and the commands. */
@injectable()
export class AvatarsState {
  readonly cloneStep$ = new BehaviorSubject<CloneStep>('closed');
  /** The user's avatars changed (a clone was started, or a refresh was asked for). */
  readonly changed$ = new Subject<void>();

  openClone() {
    this.cloneStep$.next('consent');
  }
  consentGiven() {
    this.cloneStep$.next('form');
  }
  closeClone() {
    this.cloneStep$.next('closed');
  }
  notifyChanged() {
    this.changed$.next();
  }
}
