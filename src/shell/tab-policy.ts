/**
 * Where navigation puts a page (VS Code's preview tabs): a page already open comes to the front; otherwise the
 * active group's preview tab (opened by navigation, never edited nor pinned) gives its place to the new page;
 * otherwise the page opens as a new preview tab. A group holds at most one preview tab.
 */
export interface TabInfo {
  id: string;
  /** Opened by navigation and not kept yet (italic). */
  preview: boolean;
}

export type OpenPlan = { kind: 'focus'; id: string } | { kind: 'replace'; id: string } | { kind: 'add' };

export function planOpen(target: string, openIds: readonly string[], activeGroup: readonly TabInfo[]): OpenPlan {
  if (openIds.includes(target)) return { kind: 'focus', id: target };
  const preview = activeGroup.find((tab) => tab.preview);
  return preview ? { kind: 'replace', id: preview.id } : { kind: 'add' };
}
