import { injectable } from 'inversify';
import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import type { Intent, Notifier } from './tokens';

/** Toasts through Blueprint's toaster, created on first use. */
@injectable()
export class ToastNotifier implements Notifier {
  private toaster?: Promise<Toaster>;

  private show(message: string, intent: Intent, icon: string): void {
    this.toaster ??= OverlayToaster.createAsync({ position: Position.TOP, maxToasts: 4 });
    void this.toaster.then((t) => t.show({ message, intent, icon: icon as never, timeout: intent === 'danger' ? 4000 : 2500 }));
  }

  success(message: string) {
    this.show(message, 'success', 'tick-circle');
  }
  info(message: string) {
    this.show(message, 'primary', 'info-sign');
  }
  warn(message: string) {
    this.show(message, 'warning', 'warning-sign');
  }
  error(message: string) {
    this.show(message, 'danger', 'error');
  }
}
