import { injectable } from 'inversify';
import { BehaviorSubject, Subject } from 'rxjs';
import type { Voice, VoiceChannel } from '../../contract';

export const VoicesStateToken = Symbol.for('voices.State');

/**
 * Where the clone flow is (part 1 §2, §4): the usage and payment notice (agree), the channel picker, then the clone
 * dialog. Modify opens the clone dialog straight away for the voice (`target`) on its own channel.
 */
export type CloneStep = 'closed' | 'notice' | 'channel' | 'form';

export interface CloneFlowState {
  step: CloneStep;
  /** The picked channel (form); for a modify, the voice's channel is looked up by the dialog. */
  channel: VoiceChannel | null;
  /** The voice being modified (the create call carries its id and api), or null for a new clone. */
  target: Voice | null;
}

const CLOSED: CloneFlowState = { step: 'closed', channel: null, target: null };

/** Shared by the panels, the clone dialogs (mounted at the workbench root) and the commands. */
@injectable()
export class VoicesState {
  readonly flow$ = new BehaviorSubject<CloneFlowState>(CLOSED);
  /** The user's voices changed (a clone or modify was started, or a refresh was asked for). */
  readonly changed$ = new Subject<void>();

  openClone() {
    this.flow$.next({ step: 'notice', channel: null, target: null });
  }
  noticeAgreed() {
    this.flow$.next({ ...this.flow$.value, step: 'channel' });
  }
  channelChosen(channel: VoiceChannel) {
    this.flow$.next({ step: 'form', channel, target: null });
  }
  /** Back from the clone dialog to the channel picker (a new clone only). */
  changeChannel() {
    this.flow$.next({ step: 'channel', channel: this.flow$.value.channel, target: null });
  }
  openModify(voice: Voice) {
    this.flow$.next({ step: 'form', channel: null, target: voice });
  }
  closeClone() {
    this.flow$.next({ ...this.flow$.value, step: 'closed' });
  }
  notifyChanged() {
    this.changed$.next();
  }
}
