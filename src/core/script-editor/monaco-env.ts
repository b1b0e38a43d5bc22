/**
 * Monaco from the local package, never a CDN (ARCHITECTURE.md): the small editor.api entry (plain text, no language
 * services) plus the few editor features a script needs, and the editor worker through Vite's `?worker` import (served
 * from our own origin, which the CSP's worker-src allows). This module is only reached through a dynamic import, so
 * Monaco sits in a lazy chunk that loads when the first script editor mounts.
 *
 * @monaco-editor/react is not used: its loader carries a jsdelivr default that would land in the bundle (the build
 * test forbids CDN addresses), and the editor needs the raw API anyway for chips, cursor snapping and the limit.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/placeholderText/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { chipClasses, chipLabel, type MarkerRange } from './markers';

globalThis.MonacoEnvironment = { getWorker: () => new EditorWorker() };

/** Matched to the shell's theme tokens (src/shell/styles.css). */
monaco.editor.defineTheme('aisa-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#1c2127',
    'editor.foreground': '#f6f7f9',
    'editorCursor.foreground': '#8abbff',
    'editor.selectionBackground': '#2d72d266',
    'editor.inactiveSelectionBackground': '#2d72d240',
    'editor.lineHighlightBackground': '#00000000',
    'editor.placeholder.foreground': '#738091',
    'scrollbarSlider.background': '#abb3bf33',
    'scrollbarSlider.hoverBackground': '#abb3bf55',
    'scrollbarSlider.activeBackground': '#abb3bf77',
  },
});
monaco.editor.defineTheme('aisa-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editor.foreground': '#1c2127',
    'editorCursor.foreground': '#2d72d2',
    'editor.selectionBackground': '#2d72d240',
    'editor.inactiveSelectionBackground': '#2d72d226',
    'editor.lineHighlightBackground': '#00000000',
    'editor.placeholder.foreground': '#8f99a8',
    'scrollbarSlider.background': '#5f6b7c33',
    'scrollbarSlider.hoverBackground': '#5f6b7c55',
    'scrollbarSlider.activeBackground': '#5f6b7c77',
  },
});

export const monacoTheme = (theme: 'dark' | 'light') => (theme === 'dark' ? 'aisa-dark' : 'aisa-light');

/**
 * The chip's text comes from a CSS rule per pause length or mark name (Monaco decorations carry classes, not
 * attributes). Lengths are digits and a dot and names come from the contract's list (the marker grammar), so the
 * rule text cannot be anything else.
 */
const chipRules = new Set<string>();
let chipSheet: HTMLStyleElement | null = null;
export function ensureChipRule(m: MarkerRange): void {
  const classes = chipClasses(m).split(' ');
  const key = classes.join('.');
  if (chipRules.has(key)) return;
  chipRules.add(key);
  if (!chipSheet) {
    chipSheet = document.createElement('style');
    chipSheet.dataset.owner = 'script-editor';
    document.head.appendChild(chipSheet);
  }
  chipSheet.appendChild(document.createTextNode(`.se-surface .${key}::before{content:${JSON.stringify(chipLabel(m))}}\n`));
}

export { monaco };
