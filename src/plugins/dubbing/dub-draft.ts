/**
 * The dubbing studio's project as plain data and pure operations. One voice reads a whole text (single: split into
 * lines at line breaks and sentence ends, each a subtitle cue), or a dialogue of up to five roles speaks a list of
 * lines (pasting `角色名：台词` lines makes the roles by name). Each role has a voice and its speed, volume, pitch and,
 * on MiniMax, an emotion; each dialogue line a pause after it. Also: the checks in the server's order, the price,
 * the request, the preview's cache key, and the draft in storage.
 */
import {
  LIMITS, MSG, captionText, countChars, dubbingCredits, estimateSeconds, type API, type CallRequest, type DubbingLine, type Voice,
} from '../../contract';
import {
  SLIDER_DEFAULTS, isRecord, numberOr, pickedOr, roundSlider, sceneVoiceOf, stringOr, voiceSettings,
  type DraftRules, type SceneVoice, type SliderKey,
} from '../../core';

const D = LIMITS.dubbing;

/** A line says something: words beyond its pause markers and emotion marks (the server's own check of a line). */
const hasSpeech = (text: string) => captionText(text) !== '';
export type DubMode = 'single' | 'dialogue';

export interface DubRole {
  id: string;
  name: string;
  voice: SceneVoice | null;
  rate: number;
  volume: number;
  pitch: number;
  /** LIMITS.emotions value; read on MiniMax voices only. */
  emotion: string;
}

export interface DubLine {
  id: string;
  roleId: string;
  text: string;
  /** Seconds of silence after the line (0: only the gap). */
  pauseAfter: number;
}

export interface DubMusic {
  /** The material id (an audio of the user's material library), or a music-library track (`lib-<n>`, `my-<n>`). */
  id: number | string;
  name: string;
  url: string;
}

/** A stored music choice: a material (numeric id) or a music-library track. */
function musicOr(v: unknown): DubMusic | null {
  if (isRecord(v) && typeof v.id === 'string' && /^(lib|my)-\d+$/.test(v.id) && typeof v.name === 'string' && typeof v.url === 'string') return v as unknown as DubMusic;
  return pickedOr<DubMusic>(v);
}

export interface DubDraft {
  name: string;
  mode: DubMode;
  /** Single mode's whole text. */
  text: string;
  /** Single mode speaks with the first role. */
  roles: DubRole[];
  lines: DubLine[];
  gap: number;
  music: DubMusic | null;
  musicVolume: number;
}

/** The colour slot of each role (its chip and its lines). */
export const ROLE_TONES = 5;
const DEFAULT_ROLE_NAMES = ['甲', '乙', '丙', '丁', '戊'];

let seq = 0;
export const localId = (prefix: string) => `${prefix}${(++seq).toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

export function newRole(name: string, like?: DubRole | null): DubRole {
  return { id: localId('r'), name, voice: like?.voice ?? null, rate: like?.rate ?? SLIDER_DEFAULTS.rate, volume: like?.volume ?? SLIDER_DEFAULTS.volume, pitch: like?.pitch ?? SLIDER_DEFAULTS.pitch, emotion: 'default' };
}

export const newLine = (roleId: string, text = ''): DubLine => ({ id: localId('l'), roleId, text, pauseAfter: 0 });

export function emptyDubDraft(): DubDraft {
  const first = newRole(DEFAULT_ROLE_NAMES[0]!);
  const second = newRole(DEFAULT_ROLE_NAMES[1]!);
  return {
    name: '', mode: 'single', text: '', roles: [first, second], lines: [newLine(first.id), newLine(second.id)],
    gap: D.gap.default, music: null, musicVolume: D.bgmVolume.default,
  };
}

/** The role single mode speaks with. */
export const narrator = (draft: DubDraft) => draft.roles[0]!;

// ------------------------------------------------------------------------------------------------ roles

/** The list with the item of this id patched, or null when the patch changed nothing (the draft stays the same object). */
function patchById<T extends { id: string }>(list: readonly T[], id: string, patch: (item: T) => T): T[] | null {
  let changed = false;
  const next = list.map((item) => {
    if (item.id !== id) return item;
    const patched = patch(item);
    changed ||= patched !== item;
    return patched;
  });
  return changed ? next : null;
}

const patchRole = (draft: DubDraft, id: string, patch: (r: DubRole) => DubRole): DubDraft => {
  const roles = patchById(draft.roles, id, patch);
  return roles ? { ...draft, roles } : draft;
};

/** A voice for a role brings the voice's own settings; an emotion stays only where the voice reads one. */
export const setRoleVoice = (draft: DubDraft, id: string, voice: Voice) =>
  patchRole(draft, id, (r) => ({ ...r, voice: sceneVoiceOf(voice), ...voiceSettings(voice), emotion: readsEmotion(voice.api) ? r.emotion : 'default' }));

export function setRoleSlider(draft: DubDraft, id: string, key: SliderKey, value: number): DubDraft {
  const range = LIMITS.sliders[key];
  const v = roundSlider(Math.max(range.min, Math.min(range.max, value)));
  return patchRole(draft, id, (r) => (r[key] === v ? r : { ...r, [key]: v }));
}

export const resetRoleSliders = (draft: DubDraft, id: string) => patchRole(draft, id, (r) => ({ ...r, ...SLIDER_DEFAULTS }));
export const setRoleEmotion = (draft: DubDraft, id: string, emotion: string) => patchRole(draft, id, (r) => (r.emotion === emotion ? r : { ...r, emotion }));

export function renameRole(draft: DubDraft, id: string, name: string): DubDraft {
  const clean = name.replace(/[：:\s]/g, '').slice(0, D.roleNameMaxChars);
  return patchRole(draft, id, (r) => (r.name === clean ? r : { ...r, name: clean }));
}

export const canAddRole = (draft: DubDraft) => draft.roles.length < D.maxRoles;

/** A new role named after the first free default name (like the last role's voice settings, without its voice). */
export function addRole(draft: DubDraft): DubDraft {
  if (!canAddRole(draft)) return draft;
  const taken = new Set(draft.roles.map((r) => r.name));
  const name = DEFAULT_ROLE_NAMES.find((n) => !taken.has(n)) ?? `角色${draft.roles.length + 1}`;
  return { ...draft, roles: [...draft.roles, newRole(name)] };
}

/** Removes a role; its lines go to the first remaining role. The last role stays. */
export function removeRole(draft: DubDraft, id: string): DubDraft {
  if (draft.roles.length <= 1 || !draft.roles.some((r) => r.id === id)) return draft;
  const roles = draft.roles.filter((r) => r.id !== id);
  return { ...draft, roles, lines: draft.lines.map((l) => (l.roleId === id ? { ...l, roleId: roles[0]!.id } : l)) };
}

/** MiniMax reads an emotion; other engines ignore it, so the studio offers it only there. */
export const readsEmotion = (api: string | undefined) => api === 'mm';

// ------------------------------------------------------------------------------------------------ lines

const patchLine = (draft: DubDraft, id: string, patch: (l: DubLine) => DubLine): DubDraft => {
  const lines = patchById(draft.lines, id, patch);
  return lines ? { ...draft, lines } : draft;
};

export const setLineText = (draft: DubDraft, id: string, text: string) => patchLine(draft, id, (l) => (l.text === text ? l : { ...l, text }));
export const setLineRole = (draft: DubDraft, id: string, roleId: string) => patchLine(draft, id, (l) => (l.roleId === roleId ? l : { ...l, roleId }));
export const setLinePause = (draft: DubDraft, id: string, pauseAfter: number) => patchLine(draft, id, (l) => (l.pauseAfter === pauseAfter ? l : { ...l, pauseAfter }));

export const canAddLine = (draft: DubDraft) => draft.lines.length < D.maxLines;

/**
 * Adds a line after `afterId` (or at the end); it is spoken by the other role of a two-person exchange (the role
 * before the line it follows), so typing a dialogue alternates by itself. Answers the draft and the new line's id.
 */
export function addLine(draft: DubDraft, afterId?: string): { draft: DubDraft; id: string | null } {
  if (!canAddLine(draft)) return { draft, id: null };
  const at = afterId ? draft.lines.findIndex((l) => l.id === afterId) : draft.lines.length - 1;
  const previous = draft.lines[at];
  const before = draft.lines[at - 1];
  const roleId = before && previous && before.roleId !== previous.roleId ? before.roleId : nextRoleId(draft, previous?.roleId);
  const line = newLine(roleId);
  const lines = [...draft.lines];
  lines.splice(at + 1, 0, line);
  return { draft: { ...draft, lines }, id: line.id };
}

function nextRoleId(draft: DubDraft, after: string | undefined): string {
  const i = draft.roles.findIndex((r) => r.id === after);
  return draft.roles[(i + 1) % draft.roles.length]!.id;
}

/** Removes a line; the last one stays (emptied). */
export function removeLine(draft: DubDraft, id: string): DubDraft {
  if (!draft.lines.some((l) => l.id === id)) return draft;
  if (draft.lines.length === 1) return setLineText(draft, id, '');
  return { ...draft, lines: draft.lines.filter((l) => l.id !== id) };
}

export function moveLine(draft: DubDraft, id: string, delta: number): DubDraft {
  const from = draft.lines.findIndex((l) => l.id === id);
  const to = Math.max(0, Math.min(draft.lines.length - 1, from + delta));
  if (from < 0 || to === from) return draft;
  const lines = [...draft.lines];
  const [line] = lines.splice(from, 1);
  lines.splice(to, 0, line!);
  return { ...draft, lines };
}

// ------------------------------------------------------------------------------------------------ pasting a dialogue

/** `角色名：台词` (full- or half-width colon; a name of at most LIMITS.dubbing.roleNameMaxChars, no spaces). */
const SPEAKER = new RegExp(`^\\s*([^：:\\s<>()（）]{1,${D.roleNameMaxChars}})\\s*[：:]\\s*(.*)$`);

/** The lines of a pasted text: each with its speaker's name (null: no `名字：` before it), blank lines dropped. */
export function parseDialogue(text: string): { role: string | null; text: string }[] {
  return text
    .split(/\r?\n/)
    .map((raw) => {
      const m = SPEAKER.exec(raw);
      return m ? { role: m[1]!, text: m[2]!.trim() } : { role: null, text: raw.trim() };
    })
    .filter((l) => l.text !== '');
}

/**
 * A pasted dialogue into the draft: roles matched by name, new names made into roles (their voices still to be
 * chosen), a line without a name spoken by the role before it. `replace` drops the current lines. Refused (with the
 * message) when nothing was found, or it would make more than five roles or a hundred lines.
 */
export function pasteDialogue(draft: DubDraft, text: string, replace: boolean): { draft: DubDraft } | { message: string } {
  const parsed = parseDialogue(text);
  if (parsed.length === 0) return { message: MSG.dubPasteEmpty };
  const kept = replace ? [] : draft.lines.filter((l) => hasSpeech(l.text));
  if (kept.length + parsed.length > D.maxLines) return { message: MSG.dubTooManyLines(D.maxLines) };
  // Roles that speak nothing after a replace are renamed to the pasted names first, so 甲/乙 become the speakers.
  let roles = [...draft.roles];
  const used = new Set(kept.map((l) => l.roleId));
  const names = [...new Set(parsed.map((l) => l.role).filter((n): n is string => n !== null))];
  const free = roles.filter((r) => !used.has(r.id) && !names.includes(r.name));
  for (const name of names) {
    if (roles.some((r) => r.name === name)) continue;
    const reuse = free.shift();
    if (reuse) roles = roles.map((r) => (r.id === reuse.id ? { ...r, name } : r));
    else roles.push(newRole(name));
  }
  if (roles.length > D.maxRoles) return { message: MSG.dubTooManyRoles(D.maxRoles) };
  let current = kept.at(-1)?.roleId ?? roles[0]!.id;
  const added = parsed.map((l) => {
    if (l.role !== null) current = roles.find((r) => r.name === l.role)!.id;
    return newLine(current, l.text);
  });
  return { draft: { ...draft, mode: 'dialogue', roles, lines: [...kept, ...added] } };
}

// ------------------------------------------------------------------------------------------------ single mode

/** Sentence ends: a line may end after these (and the closing quotes and pause markers that follow them). */
const SENTENCE = /[^。！？!?；;…\n]*(?:[。！？!?；;…]+[”’」』）)]*(?:\s*<#[\d.]+#>)*|\n|$)/g;

/**
 * Single mode's text as lines: each paragraph, cut at sentence ends; when that would make more than `maxLines`,
 * neighbouring sentences are joined (each line about an equal share of the characters) so it never does.
 */
export function splitText(text: string, maxLines: number = D.maxLines): string[] {
  const sentences: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    for (const m of paragraph.match(SENTENCE) ?? []) if (hasSpeech(m)) sentences.push(m.trim());
  }
  if (sentences.length <= maxLines) return sentences;
  const total = sentences.reduce((n, s) => n + countChars(s), 0);
  const share = total / Math.max(1, maxLines - 1);
  const lines: string[] = [];
  let line = '';
  for (const s of sentences) {
    line += s;
    if (countChars(line) >= share) {
      lines.push(line);
      line = '';
    }
  }
  if (line) lines.push(line);
  return lines;
}

// ------------------------------------------------------------------------------------------------ what is spoken

/** A line as it will be spoken: its words, its role, and its pause. */
export interface SpokenLine {
  /** The dialogue line's id (single mode: `single-<n>`). */
  id: string;
  text: string;
  role: DubRole;
  pauseAfter: number;
}

export function spokenLines(draft: DubDraft): SpokenLine[] {
  if (draft.mode === 'single') return splitText(draft.text).map((text, i) => ({ id: `single-${i}`, text, role: narrator(draft), pauseAfter: 0 }));
  const roles = new Map(draft.roles.map((r) => [r.id, r]));
  return draft.lines.map((l) => ({ id: l.id, text: l.text.trim(), role: roles.get(l.roleId) ?? draft.roles[0]!, pauseAfter: l.pauseAfter }));
}

/** The first thing that stops a generation, in the server's order, with the line it is about (null: none). */
export function dubProblem(draft: DubDraft): { message: string; lineId: string | null } | null {
  const lines = spokenLines(draft);
  if (draft.mode === 'single' && !hasSpeech(draft.text)) return { message: MSG.scriptRequired, lineId: null };
  if (lines.length === 0) return { message: MSG.dubLinesEmpty, lineId: null };
  if (lines.length > D.maxLines) return { message: MSG.dubTooManyLines(D.maxLines), lineId: null };
  for (const [i, line] of lines.entries()) {
    if (!hasSpeech(line.text)) return { message: MSG.dubLineEmpty(i + 1), lineId: line.id };
    if (!line.role.voice) return { message: draft.mode === 'single' ? MSG.voiceRequired : MSG.dubRoleNeedsVoice(line.role.name), lineId: line.id };
  }
  if (dubChars(draft) > D.maxChars) return { message: MSG.scriptTooLong(D.maxChars), lineId: null };
  if (new Set(lines.map((l) => l.role.id)).size > D.maxRoles) return { message: MSG.dubTooManyRoles(D.maxRoles), lineId: null };
  return null;
}

/** Seconds a line is expected to last at its role's speed (the server measures the real length). */
export const estimateLine = (line: SpokenLine) => (hasSpeech(line.text) ? estimateSeconds(line.text, line.role.rate) : 0);

export const dubChars = (draft: DubDraft) => spokenLines(draft).reduce((n, l) => n + countChars(l.text), 0);

/** The credits of the draft at each voice channel's price per 100 characters (`prices`: api → credits). */
export function dubPrice(draft: DubDraft, prices: ReadonlyMap<string, number>): number {
  return dubbingCredits(spokenLines(draft).map((l) => ({ chars: countChars(l.text), perUnit: l.role.voice ? (prices.get(l.role.voice.api) ?? 0) : 0 })));
}

/** One line as the server takes it: the role's voice and settings, its emotion where MiniMax reads one. */
export function lineItem(line: SpokenLine, named: boolean): DubbingLine {
  const { role } = line;
  return {
    voice_id: role.voice?.id,
    text: line.text,
    rate: role.rate,
    volume: role.volume,
    pitch: role.pitch,
    ...(readsEmotion(role.voice?.api) && role.emotion !== 'default' ? { emotion: role.emotion as DubbingLine['emotion'] } : {}),
    ...(line.pauseAfter > 0 ? { pause_after: line.pauseAfter } : {}),
    ...(named && role.name ? { role: role.name } : {}),
  };
}

export function buildRequest(draft: DubDraft): CallRequest<typeof API.dubbing.create> {
  const named = draft.mode === 'dialogue';
  return {
    name: draft.name.trim() || LIMITS.defaultWorkName,
    lines: JSON.stringify(spokenLines(draft).map((l) => lineItem(l, named))),
    gap: draft.gap,
    ...(draft.music ? { ...(typeof draft.music.id === 'number' ? { bgm_id: draft.music.id } : { bgm: draft.music.id }), bgm_volume: draft.musicVolume } : {}),
  };
}

/** What a line's preview depends on: its words and its role's voice and settings. */
export function previewKey(line: SpokenLine): string {
  const r = line.role;
  return JSON.stringify([line.text, r.voice?.id ?? null, r.rate, r.volume, r.pitch, readsEmotion(r.voice?.api) ? r.emotion : 'default']);
}

// ------------------------------------------------------------------------------------------------ the stored draft

export const DUB_DRAFT_KEY = 'dubbing.draft';

export const hasUnsavedText = (draft: DubDraft) => (draft.mode === 'single' ? draft.text.trim() !== '' : draft.lines.some((l) => l.text.trim() !== ''));

function reviveRole(stored: unknown): DubRole | null {
  if (!isRecord(stored)) return null;
  const role = newRole(stringOr(stored.name, '').slice(0, D.roleNameMaxChars));
  return {
    ...role,
    id: stringOr(stored.id, role.id),
    voice: pickedOr<SceneVoice>(stored.voice),
    rate: numberOr(stored.rate, role.rate),
    volume: numberOr(stored.volume, role.volume),
    pitch: numberOr(stored.pitch, role.pitch),
    emotion: stringOr(stored.emotion, 'default'),
  };
}

export const dubDraftRules: DraftRules<DubDraft> = {
  revive(stored) {
    if (!isRecord(stored) || !Array.isArray(stored.roles) || !Array.isArray(stored.lines)) return null;
    const roles = stored.roles.map(reviveRole).filter((r): r is DubRole => r !== null).slice(0, D.maxRoles);
    if (roles.length === 0) return null;
    const ids = new Set(roles.map((r) => r.id));
    const lines = stored.lines
      .filter(isRecord)
      .slice(0, D.maxLines)
      .map((l) => ({ ...newLine(ids.has(String(l.roleId)) ? String(l.roleId) : roles[0]!.id, stringOr(l.text, '')), pauseAfter: numberOr(l.pauseAfter, 0) }));
    const empty = emptyDubDraft();
    return {
      name: stringOr(stored.name, ''),
      mode: stored.mode === 'dialogue' ? 'dialogue' : 'single',
      text: stringOr(stored.text, ''),
      roles,
      lines: lines.length ? lines : [newLine(roles[0]!.id)],
      gap: numberOr(stored.gap, empty.gap),
      music: musicOr(stored.music),
      musicVolume: numberOr(stored.musicVolume, empty.musicVolume),
    };
  },
  keep: (draft) => draft,
  isEmpty: (draft) => !hasUnsavedText(draft) && draft.roles.every((r) => !r.voice) && !draft.name && !draft.music,
};
