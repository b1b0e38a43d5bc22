import { injectable } from 'inversify';
import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import type { Intent, Notifier, ToastOptions } from './tokens';

/** Toasts through Blueprint's toaster, created on first use. */
@injectable()
export class ToastNotifier implements Notifier {
  private toaster?: Promise<Toaster>;

  private show(message: string, intent: Intent, icon: string, options: ToastOptions = {}): void {
    this.toaster ??= OverlayToaster.createAsync({ position: Position.TOP, maxToasts: 4 });
    const timeout = options.timeout ?? (intent === 'danger' ? 4000 : 2500);
    // The same message again while it shows replaces it (and restarts its timer): one toast, not a pile of them.
    void this.toaster.then((t) => {
      if (options.clearOthers) t.clear();
      t.show({ message, intent, icon: icon as never, timeout }, `${intent}:${message}`);
    });
  }

  success(message: string, options?: ToastOptions) {
    this.show(message, 'success', 'tick-circle', options);
  }
  info(message: string, options?: ToastOptions) {
    this.show(message, 'primary', 'info-sign', options);
  }
  warn(message: string, options?: ToastOptions) {
    this.show(message, 'warning', 'warning-sign', options);
  }
  error(message: string, options?: ToastOptions) {
    this.show(message, 'danger', 'error', options);
  }
}
