import type { DockviewApi } from 'dockview-react';

/** The live dock, for shell commands (split, close) that act on it from the palette. */
let current: DockviewApi | null = null;

export function setDockApi(api: DockviewApi | null): void {
  current = api;
}

export function getDockApi(): DockviewApi | null {
  return current;
}
