import { injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { tinykeys } from 'tinykeys';
import type { Command, CommandRegistry } from './tokens';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], .monaco-editor';

/** Bindings without a modifier (like `g h`) must not fire while the user types. */
function hasModifier(binding: string): boolean {
  return /(\$mod|Control|Meta|Alt)\+/.test(binding);
}

/**
 * The one source of truth for commands and their key bindings. The palette (kbar) is a view of it;
 * key bindings are installed from it, so they work with the palette closed.
 *
 * A command's `when()` may depend on where the focus is (focus-scoped commands, e.g. the script editor's
 * "insert pause" while an editor has the cursor): while keys are bound, every focus move re-publishes the list,
 * so views filtering on `when()` see it fresh, in particular the palette at the moment it takes the focus.
 */
@injectable()
export class DefaultCommandRegistry implements CommandRegistry {
  private readonly commands = new Map<string, Command>();
  private readonly subject = new BehaviorSubject<readonly Command[]>([]);
  readonly commands$: Observable<readonly Command[]> = this.subject.asObservable();
  private readonly rebinders = new Set<() => void>();

  register(command: Command): () => void {
    if (this.commands.has(command.id)) throw new Error(`duplicate command id "${command.id}"`);
    this.commands.set(command.id, command);
    this.changed();
    return () => {
      if (this.commands.get(command.id) === command) {
        this.commands.delete(command.id);
        this.changed();
      }
    };
  }

  list(): readonly Command[] {
    return this.subject.value;
  }

  async run(id: string): Promise<void> {
    const command = this.commands.get(id);
    if (!command) throw new Error(`unknown command "${id}"`);
    if (command.when && !command.when()) return;
    await command.run();
  }

  bindKeys(target: Window | HTMLElement): () => void {
    let unbind = () => {};
    const rebind = () => {
      unbind();
      const map: Record<string, (e: KeyboardEvent) => void> = {};
      for (const command of this.commands.values()) {
        for (const binding of command.keys ?? []) {
          map[binding] = (event) => {
            const el = event.target as HTMLElement | null;
            if (!hasModifier(binding) && el?.closest?.(EDITABLE)) return;
            if (command.when && !command.when()) return;
            event.preventDefault();
            void command.run();
          };
        }
      }
      unbind = tinykeys(target, map);
    };
    rebind();
    this.rebinders.add(rebind);
    const unwatch = this.watchFocus('document' in target ? target.document : target.ownerDocument);
    return () => {
      this.rebinders.delete(rebind);
      unbind();
      unwatch();
    };
  }

  /** Re-publishes the list after focus moves (once per move: focusout and focusin come together), if any command has a `when`. */
  private watchFocus(doc: Document): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const moved = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        if ([...this.commands.values()].some((c) => c.when)) this.subject.next([...this.commands.values()]);
      }, 0);
    };
    doc.addEventListener('focusin', moved);
    doc.addEventListener('focusout', moved);
    return () => {
      clearTimeout(timer);
      doc.removeEventListener('focusin', moved);
      doc.removeEventListener('focusout', moved);
    };
  }

  private changed(): void {
    this.subject.next([...this.commands.values()]);
    for (const rebind of this.rebinders) rebind();
  }
}
