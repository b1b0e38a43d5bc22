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

export interface Renaming<T> {
  /** Opens the rename dialog on `item`. */
  ask: (item: T) => void;
  /** What RenameDialog takes: the item (null: closed), its close, and the save. */
  dialog: { item: T | null; onClose: () => void; onSave: (item: T, name: string) => Promise<boolean> };
}

/**
 * The rename dialog of a list: which item it renames, the call, 重命名成功, then `after` (reload). `action`: the
 * panel's own, when its busy state is to cover renaming too; else one of its own.
 */
export function useRenaming<T>(rename: (item: T, name: string) => Promise<unknown>, after: () => void, action?: Action): Renaming<T> {
  const [item, setItem] = useState<T | null>(null);
  const own = useAction();
  const { run } = action ?? own;
  return {
    ask: setItem,
    dialog: { item, onClose: () => setItem(null), onSave: (target, name) => run(() => rename(target, name), { success: MSG.renameSucceeded, then: after }) },
  };
}
