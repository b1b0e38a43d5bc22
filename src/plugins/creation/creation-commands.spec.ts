import 'reflect-metadata';
import { describe, expect, it, vi } from 'vitest';
import { CreationCommands } from './creation-commands';
import { CreationState, type ScriptEditorHandle } from './creation-state';
import { PANES, savedLayout, screenClass, withLayout } from './panels/layout';

function editor(over: Partial<ScriptEditorHandle> = {}): ScriptEditorHandle {
  return {
    pausesAllowed: true, canAudition: true, canSubmit: true, aiAvailable: true,
    insertPause: vi.fn(), polish: vi.fn(), openAiWriting: vi.fn(), audition: vi.fn(), submit: vi.fn(),
    ...over,
  };
}

describe('script editor commands', () => {
  const setup = () => {
    const state = new CreationState();
    const commands = new CreationCommands(state).commands();
    const byId = (id: string) => commands.find((c) => c.id === id)!;
    const visible = () => commands.filter((c) => c.when!()).map((c) => c.id);
    return { state, commands, byId, visible };
  };

  it('show only while an editor has the cursor, and act on that editor', () => {
    const { state, byId, visible } = setup();
    expect(visible()).toEqual([]);
    const a = editor();
    state.activate(a);
    expect(visible()).toEqual([
      'creation.editor.pause.0_2', 'creation.editor.pause.0_3', 'creation.editor.pause.0_5', 'creation.editor.pause.1', 'creation.editor.pause.2',
      'creation.editor.polish', 'creation.editor.emotion', 'creation.editor.aiWriting', 'creation.editor.audition', 'creation.editor.submit',
    ]);
    void byId('creation.editor.pause.0_5').run();
    void byId('creation.editor.emotion').run();
    void byId('creation.editor.submit').run();
    expect(a.insertPause).toHaveBeenCalledWith(0.5);
    expect(a.polish).toHaveBeenCalledWith(true);
    expect(a.submit).toHaveBeenCalled();
    // Another editor took the cursor: giving it up from the first changes nothing.
    const b = editor();
    state.activate(b);
    state.deactivate(a);
    expect(state.activeEditor).toBe(b);
    state.deactivate(b);
    expect(visible()).toEqual([]);
    void byId('creation.editor.pause.1').run();
    expect(b.insertPause).not.toHaveBeenCalled();
  });

  it('hide what the editor does not offer: pauses on fish and nw, audition and submit without a host, AI without an engine', () => {
    const { state, visible } = setup();
    state.activate(editor({ pausesAllowed: false, canAudition: false, canSubmit: false, aiAvailable: false }));
    expect(visible()).toEqual([]);
    state.activate(editor({ pausesAllowed: false, canAudition: false, canSubmit: true, aiAvailable: false }));
    expect(visible()).toEqual(['creation.editor.submit']);
  });
});

describe('the /create layout', () => {
  const layout = (ids: string[]) => ({ grid: { root: {}, width: 1, height: 1, orientation: 'HORIZONTAL' }, panels: Object.fromEntries(ids.map((id) => [id, { id }])) });
  const ours = PANES.map((p) => p.id as string);

  it('restores only an arrangement of exactly our four panes, per screen class', () => {
    const saved = withLayout(null, 'wide', layout(ours) as never);
    expect(savedLayout(saved, 'wide')).toBe(saved.wide);
    expect(savedLayout(saved, 'narrow')).toBeNull();
    expect(savedLayout(withLayout(saved, 'narrow', layout(ours) as never), 'wide')).toBe(saved.wide);
    expect(savedLayout({ wide: layout(['script', 'avatar']) }, 'wide')).toBeNull();
    expect(savedLayout({ wide: layout([...ours, 'other']) }, 'wide')).toBeNull();
    expect(savedLayout({ wide: { ...layout(ours), floatingGroups: [{}] } }, 'wide')).toBeNull();
    expect(savedLayout('garbage', 'wide')).toBeNull();
    expect(savedLayout(null, 'wide')).toBeNull();
  });

  it('tells phones from wider screens', () => {
    expect(screenClass(390)).toBe('narrow');
    expect(screenClass(767)).toBe('narrow');
    expect(screenClass(768)).toBe('wide');
  });
});
