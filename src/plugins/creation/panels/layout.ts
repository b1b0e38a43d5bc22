/**
 * The /create panel's own dock: four panes (脚本, 数字人, 声音, 预览) the user can rearrange. The arrangement is saved
 * under `aisa.create.layout` (the Storage service adds `aisa.`), one per screen class, since a phone's tabs and a
 * desktop's columns are both worth keeping; a saved arrangement that does not hold exactly our panes is dropped.
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

/** The saved arrangement for this screen class, if it is one of ours (exactly the four panes). */
export function savedLayout(saved: unknown, screen: ScreenClass): SerializedDockview | null {
  if (!saved || typeof saved !== 'object') return null;
  const layout = (saved as SavedLayouts)[screen];
  if (!layout || typeof layout !== 'object' || !layout.grid || !layout.panels || typeof layout.panels !== 'object') return null;
  const ids = Object.keys(layout.panels).sort();
  const ours = PANES.map((p) => p.id as string).sort();
  if (ids.length !== ours.length || ids.some((id, i) => id !== ours[i])) return null;
  if (layout.floatingGroups?.length || layout.popoutGroups?.length) return null;
  return layout;
}

/** Stores one screen class's arrangement beside the other's. */
export function withLayout(saved: unknown, screen: ScreenClass, layout: SerializedDockview): SavedLayouts {
  const base: SavedLayouts = saved && typeof saved === 'object' ? { ...(saved as SavedLayouts) } : {};
  base[screen] = layout;
  return base;
}

const title = (id: PaneId) => PANES.find((p) => p.id === id)!.title;

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
    add('preview', { referencePanel: 'voice', direction: 'below' }, height > 0 ? { initialHeight: Math.round(height * 0.55) } : undefined);
  }
  api.getPanel('script')?.api.setActive();
}
