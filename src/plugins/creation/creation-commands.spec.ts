import 'reflect-metadata';
import { describe, expect, it, vi } from 'vitest';
import { CreationCommands } from './creation-commands';
import { ScriptEditorState, type ScriptEditorHandle } from '../../core';
import { CreationState } from './creation-state';
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
    const state = new ScriptEditorState();
    const navigation = { current: { path: '/multiples', query: {} } };
    const commands = new CreationCommands(new CreationState(), state, navigation).commands();
    const byId = (id: string) => commands.find((c) => c.id === id)!;
    const visible = () => commands.filter((c) => c.when!()).map((c) => c.id);
    return { state, commands, byId, visible, navigation };
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

describe('/create page commands', () => {
  it('show while /create is the active page: submit, choose an avatar or a voice, switch the drive, show a pane, reset', () => {
    const state = new CreationState();
    const editors = new ScriptEditorState();
    const navigation = { current: { path: '/create', query: {} } };
    const commands = new CreationCommands(state, editors, navigation).commands();
    const visible = () => commands.filter((c) => c.when!()).map((c) => c.id);
    const run = (id: string) => void commands.find((c) => c.id === id)!.run();
    expect(visible()).toEqual([]);
    const page = { mode: 'text' as 'text' | 'audio', showPane: vi.fn(), resetLayout: vi.fn(), submit: vi.fn(), setMode: vi.fn() };
    state.createPage = page;
    const pageIds = [
      'creation.create.submit', 'creation.create.avatar', 'creation.create.voice', 'creation.create.audioDrive',
      'creation.create.pane.script', 'creation.create.pane.avatar', 'creation.create.pane.voice', 'creation.create.pane.preview', 'creation.create.resetLayout',
    ];
    expect(visible()).toEqual(pageIds);
    // With the editor's cursor too, the page's 合成视频 stands for the editor's submit.
    editors.activate(editor());
    expect(visible()).not.toContain('creation.editor.submit');
    expect(visible()).toContain('creation.create.submit');
    run('creation.create.submit');
    run('creation.create.avatar');
    run('creation.create.voice');
    run('creation.create.audioDrive');
    run('creation.create.pane.preview');
    run('creation.create.resetLayout');
    expect(page.submit).toHaveBeenCalledTimes(1);
    expect(page.showPane.mock.calls.map((c) => c[0])).toEqual(['avatar', 'voice', 'script', 'preview']);
    expect(page.setMode).toHaveBeenCalledWith('audio');
    expect(page.resetLayout).toHaveBeenCalled();
    page.mode = 'audio';
    expect(visible()).toContain('creation.create.textDrive');
    expect(visible()).not.toContain('creation.create.audioDrive');
    // Another page is active: /create's commands hide (the editor's come back).
    navigation.current.path = '/works';
    expect(visible().filter((id) => id.startsWith('creation.create.'))).toEqual([]);
    expect(visible()).toContain('creation.editor.submit');
  });
});

describe('the /create layout', () => {
  const layout = (ids: string[]) => ({ grid: { root: {}, width: 1, height: 1, orientation: 'HORIZONTAL' }, panels: Object.fromEntries(ids.map((id) => [id, { id }])) });
  const ours = PANES.map((p) => p.id as string);

  it('restores an arrangement of some of our panes (closed ones stay closed), per screen class', () => {
    const saved = withLayout(null, 'wide', layout(ours) as never);
    expect(savedLayout(saved, 'wide')).toBe(saved.wide);
    expect(savedLayout(saved, 'narrow')).toBeNull();
    expect(savedLayout(withLayout(saved, 'narrow', layout(ours) as never), 'wide')).toBe(saved.wide);
    expect(savedLayout({ wide: layout(['script', 'avatar']) }, 'wide')).not.toBeNull();
    expect(savedLayout({ wide: layout([]) }, 'wide')).toBeNull();
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
