/**
 * The /create panel's own dock: four panes (脚本, 数字人, 声音, 预览) the user can rearrange. The arrangement is saved
 * under `aisa.create.layout` (the Storage service adds `aisa.`), one per screen class, since a phone's tabs and a
 * desktop's columns are both worth keeping. A pane can be closed and reopened (the palette, the reset button), so a saved
 * arrangement holds some of our panes; one that holds anything else is dropped.
 */
import type { DockviewApi, SerializedDockview } from 'dockview-react';

export const CREATE_LAYOUT_KEY = 'create.layout';

export const PANES = [
  { id: 'script', title: '脚本' },
  { id: 'avatar', title: '数字人' },
  { id: 'voice', title: '声音' },
  { id: 'preview', title: '预览' },
] as const;
export type PaneId = (typeof PANES)[number]['id'];

/** Below this width the panes start as tabs of one group. */
export const NARROW_MAX_WIDTH = 767;
export type ScreenClass = 'wide' | 'narrow';
export const screenClass = (width: number): ScreenClass => (width <= NARROW_MAX_WIDTH ? 'narrow' : 'wide');

export type SavedLayouts = Partial<Record<ScreenClass, SerializedDockview>>;

/** The saved arrangement for this screen class, if it is one of ours (some of our panes, nothing else). */
export function savedLayout(saved: unknown, screen: ScreenClass): SerializedDockview | null {
  if (!saved || typeof saved !== 'object') return null;
  const layout = (saved as SavedLayouts)[screen];
  if (!layout || typeof layout !== 'object' || !layout.grid || !layout.panels || typeof layout.panels !== 'object') return null;
  const ids = Object.keys(layout.panels);
  const ours = PANES.map((p) => p.id as string);
  if (ids.length === 0 || ids.some((id) => !ours.includes(id))) return null;
  if (layout.floatingGroups?.length || layout.popoutGroups?.length) return null;
  return layout;
}

/** Narrower than this the script editor is not usable (its toolbar wraps, a line holds a few characters). */
export const SCRIPT_MIN_WIDTH = 300;

/** A restored arrangement whose script pane (if open) is too narrow for the dock it lands in is not kept. */
export function scriptUsable(api: DockviewApi): boolean {
  const script = api.getPanel('script');
  return !script || script.api.width === 0 || script.api.width >= Math.min(SCRIPT_MIN_WIDTH, api.width * 0.9);
}

/** Stores one screen class's arrangement beside the other's. */
export function withLayout(saved: unknown, screen: ScreenClass, layout: SerializedDockview): SavedLayouts {
  const base: SavedLayouts = saved && typeof saved === 'object' ? { ...(saved as SavedLayouts) } : {};
  base[screen] = layout;
  return base;
}

/** A dock shorter than this (a laptop's 800 px window) gives the 声音 pane more height than the 预览 pane. */
const SHORT_DOCK_PX = 720;

export const paneTitle = (id: PaneId) => PANES.find((p) => p.id === id)!.title;
const title = paneTitle;

/**
 * The default arrangement. Wide: 数字人 | 脚本 | 声音 over 预览. Narrow: one group of tabs, 脚本 first.
 * `width` and `height` are the dock's own, so the side columns fit it and the preview gets the larger share of its column.
 */
export function applyDefaultLayout(api: DockviewApi, screen: ScreenClass, width: number, height = 0, titles: Partial<Record<PaneId, string>> = {}): void {
  api.clear();
  const add = (id: PaneId, position?: Parameters<DockviewApi['addPanel']>[0]['position'], size?: { initialWidth?: number; initialHeight?: number }) =>
    api.addPanel({ id, component: id, title: titles[id] ?? title(id), position, ...size });
  if (screen === 'narrow') {
    add('script');
    add('avatar', { referencePanel: 'script', direction: 'within' });
    add('voice', { referencePanel: 'script', direction: 'within' });
    add('preview', { referencePanel: 'script', direction: 'within' });
  } else {
    const side = Math.round(Math.min(320, Math.max(220, width * 0.24)));
    add('script');
    add('avatar', { referencePanel: 'script', direction: 'left' }, { initialWidth: side });
    add('voice', { referencePanel: 'script', direction: 'right' }, { initialWidth: side });
    // On a short dock (a 1366×800 laptop) the voice list and its parameters get the larger share.
    const previewShare = height < SHORT_DOCK_PX ? 0.42 : 0.55;
    add('preview', { referencePanel: 'voice', direction: 'below' }, height > 0 ? { initialHeight: Math.round(height * previewShare) } : undefined);
  }
  api.getPanel('script')?.api.setActive();
}

/**
 * Brings a pane to the front, reopening it if it was closed: in the phone's single group of tabs; on wider screens
 * where the default arrangement has it (数字人 left, 脚本 beside it, 声音 right, 预览 under 声音).
 */
export function showPane(api: DockviewApi, id: PaneId, screen: ScreenClass, width: number, titles: Partial<Record<PaneId, string>> = {}): void {
  const open = api.getPanel(id);
  if (open) {
    open.api.setActive();
    return;
  }
  const panel = { id, component: id, title: titles[id] ?? title(id) };
  const first = api.panels[0];
  if (!first) api.addPanel(panel);
  else if (screen === 'narrow') api.addPanel({ ...panel, position: { referencePanel: first.id, direction: 'within' } });
  else {
    const side = Math.round(Math.min(320, Math.max(220, width * 0.24)));
    const has = (p: PaneId) => Boolean(api.getPanel(p));
    if (id === 'avatar') api.addPanel({ ...panel, position: { direction: 'left' }, initialWidth: side });
    else if (id === 'script') api.addPanel({ ...panel, position: has('avatar') ? { referencePanel: 'avatar', direction: 'right' } : { direction: 'left' } });
    else if (id === 'voice') api.addPanel({ ...panel, position: has('preview') ? { referencePanel: 'preview', direction: 'above' } : { direction: 'right' }, initialWidth: side });
    else api.addPanel({ ...panel, position: has('voice') ? { referencePanel: 'voice', direction: 'below' } : { direction: 'right' }, initialWidth: side });
  }
  api.getPanel(id)?.api.setActive();
}
