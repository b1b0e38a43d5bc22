import { useCallback, useState } from 'react';
import { useService } from './react';
import { TOKENS, type Notifier } from './tokens';

export interface ActionOptions {
  /** Said on success (MSG.deleteSucceeded…). */
  success?: string;
  /** Runs after success (close a dialog, reload the list). */
  then?: () => void;
}

export interface Action {
  /** One action is running. */
  busy: boolean;
  /**
   * Runs `work` with `busy` set; true when it succeeded. A failure has already been shown by the ApiClient (the
   * server's message), so it only answers false.
   */
  run: (work: () => Promise<unknown>, options?: ActionOptions) => Promise<boolean>;
}

/** The busy / call / notify / reload of a panel's buttons (delete, rename, confirm). */
export function useAction(): Action {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (work: () => Promise<unknown>, options: ActionOptions = {}) => {
      setBusy(true);
      try {
        await work();
      } catch {
        return false;
      } finally {
        setBusy(false);
      }
      if (options.success) notifier.success(options.success);
      options.then?.();
      return true;
    },
    [notifier],
  );
  return { busy, run };
}
