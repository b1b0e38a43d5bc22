import type { DockviewApi, IDockviewPanel } from 'dockview-react';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';

/** The live dock, for shell commands (split, close) that act on it from the palette. */
let current: DockviewApi | null = null;

export function setDockApi(api: DockviewApi | null): void {
  current = api;
  publishOpenPages();
}

export function getDockApi(): DockviewApi | null {
  return current;
}

/** The open pages in tab order, for the phone's page switcher (the tab strip is hidden there). */
export interface OpenPage {
  id: string;
  title: string;
  active: boolean;
}
const openPages = new BehaviorSubject<readonly OpenPage[]>([]);
export const openPages$: Observable<readonly OpenPage[]> = openPages.asObservable();

export function publishOpenPages(): void {
  const api = current;
  const active = api?.activePanel?.id;
  openPages.next(api ? api.groups.flatMap((g) => g.panels).map((p) => ({ id: p.id, title: p.title ?? p.id, active: p.id === active })) : []);
}

/** What a page's dock panel carries (saved with the layout). */
export interface RouteParams {
  path: string;
  query: Record<string, string>;
  /** Opened by navigation and neither edited nor pinned: the next navigation replaces it (italic tab). */
  preview?: boolean;
  /** The page said it holds unsaved work. */
  dirty?: boolean;
}

export const paramsOf = (panel: IDockviewPanel) => (panel.params ?? {}) as RouteParams;

/** Keeps a preview tab open (an edit, a double-click on its tab, or the pin command). */
export function keepPanel(panel: IDockviewPanel | undefined): void {
  if (panel && paramsOf(panel).preview) panel.api.updateParameters({ ...paramsOf(panel), preview: false });
}

/** Pages that asked to close while holding unsaved work; the dock asks the user first (DockArea's CloseConfirm). */
const closeAsks = new Subject<IDockviewPanel>();
export const closeAsk$: Observable<IDockviewPanel> = closeAsks.asObservable();

/** Every close (the tab's ×, a middle click, Alt+W, the palette) comes here: a page with unsaved work asks first. */
export function requestClose(panel: IDockviewPanel | null | undefined): void {
  if (!panel) return;
  if (paramsOf(panel).dirty) closeAsks.next(panel);
  else panel.api.close();
}
