import { describe, expect, it, vi } from 'vitest';
import { DefaultCommandRegistry } from './command-registry';

const press = (target: EventTarget, key: string, init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, ...init }));

describe('CommandRegistry', () => {
  it('refuses a duplicate command id', () => {
    const registry = new DefaultCommandRegistry();
    registry.register({ id: 'a.b', title: 'x', run: () => {} });
    expect(() => registry.register({ id: 'a.b', title: 'y', run: () => {} })).toThrow(/duplicate command id "a.b"/);
  });

  it('publishes the list, and unregisters', () => {
    const registry = new DefaultCommandRegistry();
    const seen: number[] = [];
    registry.commands$.subscribe((c) => seen.push(c.length));
    const off = registry.register({ id: 'x.y', title: 'x', run: () => {} });
    off();
    expect(seen).toEqual([0, 1, 0]);
  });

  it('runs commands by their key bindings, including sequences and ones registered later', () => {
    const registry = new DefaultCommandRegistry();
    const theme = vi.fn();
    const home = vi.fn();
    registry.register({ id: 'theme', title: 't', keys: ['$mod+Shift+L'], run: theme });
    const unbind = registry.bindKeys(window);
    registry.register({ id: 'home', title: 'h', keys: ['g h'], run: home });
    press(window, 'L', { ctrlKey: true, shiftKey: true, code: 'KeyL' });
    press(window, 'g', { code: 'KeyG' });
    press(window, 'h', { code: 'KeyH' });
    expect(theme).toHaveBeenCalledTimes(1);
    expect(home).toHaveBeenCalledTimes(1);
    unbind();
    press(window, 'g');
    press(window, 'h');
    expect(home).toHaveBeenCalledTimes(1);
  });

  it('ignores plain-key bindings while the user types in a field, but not modifier bindings', () => {
    const registry = new DefaultCommandRegistry();
    const home = vi.fn();
    const palette = vi.fn();
    registry.register({ id: 'home', title: 'h', keys: ['g h'], run: home });
    registry.register({ id: 'palette', title: 'p', keys: ['$mod+k'], run: palette });
    registry.bindKeys(window);
    const input = document.createElement('input');
    document.body.appendChild(input);
    press(input, 'g');
    press(input, 'h');
    press(input, 'k', { ctrlKey: true, code: 'KeyK' });
    expect(home).not.toHaveBeenCalled();
    expect(palette).toHaveBeenCalledTimes(1);
  });

  it('skips a command whose when() is false', async () => {
    const registry = new DefaultCommandRegistry();
    const run = vi.fn();
    registry.register({ id: 'c', title: 'c', when: () => false, run });
    await registry.run('c');
    expect(run).not.toHaveBeenCalled();
    await expect(registry.run('missing')).rejects.toThrow(/unknown command/);
  });

  it('re-publishes the list when the focus moves, so focus-scoped when() is seen fresh', async () => {
    const registry = new DefaultCommandRegistry();
    const field = document.createElement('textarea');
    document.body.appendChild(field);
    registry.register({ id: 'editor.insert', title: 'i', when: () => document.activeElement === field, run: () => {} });
    const unbind = registry.bindKeys(window);
    const visible: boolean[] = [];
    registry.commands$.subscribe((list) => visible.push(list.filter((c) => !c.when || c.when()).length === 1));
    const settle = () => new Promise((r) => setTimeout(r, 5));
    field.focus();
    await settle();
    field.blur();
    await settle();
    expect(visible).toEqual([false, true, false]);
    unbind();
    field.focus();
    await settle();
    expect(visible).toHaveLength(3);
    field.remove();
  });
});
