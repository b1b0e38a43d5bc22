import { useCallback, useState } from 'react';
import { MSG } from '../contract';
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

export interface Deletion<T> {
  /** What the confirmation asks about; null while it is closed. */
  target: T | null;
  busy: boolean;
  ask: (target: T) => void;
  /** Closes the confirmation and says it was cancelled. */
  cancel: () => void;
  /** Deletes the target; on success says so, closes, and runs `after`. */
  confirm: () => void;
}

/** The delete confirmation of a list: which item it asks about, the call, 删除成功 / 已取消删除, then `after` (reload). */
export function useDeletion<T>(remove: (target: T) => Promise<unknown>, after: (target: T) => void): Deletion<T> {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [target, setTarget] = useState<T | null>(null);
  const { busy, run } = useAction();
  const cancel = useCallback(() => {
    setTarget(null);
    notifier.info(MSG.deleteCancelled);
  }, [notifier]);
  const confirm = () => {
    const item = target;
    if (item === null) return;
    void run(() => remove(item), {
      success: MSG.deleteSucceeded,
      then: () => {
        setTarget(null);
        after(item);
      },
    });
  };
  return { target, busy, ask: setTarget, cancel, confirm };
}
