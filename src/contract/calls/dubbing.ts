/**
 * The dubbing studio (part 2 §2.1 routes /store/dubbing/index, "dubbing", contents not shown; the store's 音频处理 card
 * 输入文字，多种音色专业配音). A project is a list of lines, each spoken by a role's voice with its own speed, volume,
 * pitch (and, on MiniMax, emotion) and an optional pause after it; the whole is one mp3 with its SRT.
 *
 * create, list and delete are the paths other checks use. The spec shows none of this screen's calls: rename,
 * save to the material library and the prices are ours. Previewing one line is the voices' audition
 * (API.voices.audition + auditionPoll): the same job, limits and 24-hour cache, so it has no call here.
 */
import { z } from 'zod';
import { defineGroup, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { countChars } from '../script';
import { captionText } from '../subtitles';
import { int, num, page, plainString, text } from '../schema';
import { SCRIPT_RAW_MAX, Timestamp, emotion, jobPage, optionalFilter, optionalId, optionalSliders, removeById, renameById, workName, jsonText, userCallById } from './fields';
import { musicTrackRef } from './music';

/** A dub's status: 1 queued, 2 running, 3 done, 4 failed (with its reason). */
export const DubbingStatus = { Queued: 1, Running: 2, Done: 3, Failed: 4 } as const;
export const DUBBING_IN_PROGRESS = [DubbingStatus.Queued, DubbingStatus.Running] as const;

const D = LIMITS.dubbing;

/** One line as submitted: its voice, text (pause markers allowed), the voice's settings for it, and the pause after it. */
export const DubbingLine = z.object({
  voice_id: optionalId('声音'),
  text: plainString('台词').trim().max(SCRIPT_RAW_MAX, MSG.scriptTooLong(D.maxChars)).default(''),
  ...optionalSliders,
  /** Read on MiniMax voices only. */
  emotion: emotion().optional(),
  /** Seconds of silence after the line, before the gap. */
  pause_after: num('句后停顿', 0, LIMITS.pauseMaxSeconds).optional(),
  /** ours: the role's name in a dialogue (甲, 旁白 …), shown in the history. */
  role: text('角色名', D.roleNameMaxChars).optional(),
});
export type DubbingLine = z.infer<typeof DubbingLine>;

/** The distinct roles of a project: by name when lines carry one, else by voice. */
export function dubbingRoles(lines: readonly Pick<DubbingLine, 'role' | 'voice_id'>[]): string[] {
  return [...new Set(lines.map((l) => (l.role ? `r:${l.role}` : `v:${l.voice_id ?? ''}`)))];
}

/** `lines`: JSON text of the line list in, checked lines out; every message names the line it is about. */
const dubbingLines = jsonText(MSG.dubLinesInvalid).pipe(z.array(DubbingLine, { error: MSG.dubLinesInvalid }).min(1, MSG.dubLinesEmpty).max(D.maxLines, MSG.dubTooManyLines(D.maxLines)))
  .superRefine((lines, ctx) => {
    lines.forEach((line, i) => {
      if (!captionText(line.text)) {
        ctx.addIssue({ code: 'custom', message: MSG.dubLineEmpty(i + 1), path: [i, 'text'] });
      }
      if (line.voice_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.dubLineNoVoice(i + 1), path: [i, 'voice_id'] });
    });
    if (lines.reduce((n, l) => n + countChars(l.text), 0) > D.maxChars) ctx.addIssue({ code: 'custom', message: MSG.scriptTooLong(D.maxChars) });
    const voices = new Set(lines.map((l) => l.voice_id));
    if (dubbingRoles(lines).length > D.maxRoles || voices.size > D.maxRoles) ctx.addIssue({ code: 'custom', message: MSG.dubTooManyRoles(D.maxRoles) });
  });

/** What a channel charges for dubbing: credits per LIMITS.dubbing.priceUnitChars characters (0: free, as offline is). */
export const DubbingPrice = z.object({ api: z.string(), name: z.string(), credits: z.number() });
export type DubbingPrice = z.infer<typeof DubbingPrice>;

/**
 * The credits of a project: each line's characters at its voice channel's price per 100, summed, then rounded up
 * once (a few characters on a paid channel still cost a credit).
 */
export function dubbingCredits(lines: readonly { chars: number; perUnit: number }[]): number {
  const total = lines.reduce((n, l) => n + l.chars * l.perUnit, 0) / D.priceUnitChars;
  return Math.max(0, Math.ceil(total - 1e-9));
}

/** Where each line is heard in the result (its cue), with its role and words. */
export const DubbingCue = z.object({ start: z.number(), end: z.number(), role: z.string(), text: z.string() });
export type DubbingCue = z.infer<typeof DubbingCue>;

export const DubbingRecord = z.object({
  id: z.number(),
  name: z.string(),
  /** DubbingStatus. */
  status: z.number(),
  /** The mp3, once done ('' before). */
  url: z.string(),
  /** The SRT, once done ('' before). */
  srt: z.string(),
  /** Seconds, once done. */
  duration: z.number(),
  /** Credits reserved (in progress) or settled (done); 0 when free or refunded. */
  credits: z.number(),
  /** Why it failed, in Chinese. */
  reason: z.string().optional(),
  create_time: Timestamp,
  /** ours: each role as 名称·声音 (or the voice alone). */
  roles: z.array(z.string()),
  /** ours: counted characters and lines. */
  chars: z.number(),
  lines: z.number(),
  /** ours: once done, each line's cue (what the waveform marks and "play from a line" seeks to). */
  cues: z.array(DubbingCue),
  /** ours: 1 when it has background music. */
  bgm: z.number(),
});
export type DubbingRecord = z.infer<typeof DubbingRecord>;

export const dubbingCalls = defineGroup('dubbing', {
  create: userCall('POST', '/api/dubbing/create', {
    summary:
      `Generate a dub: lines (JSON text of [{voice_id, text, rate?, volume?, pitch?, emotion?, pause_after?, role?}], at most ${D.maxLines} lines, ` +
      `${D.maxChars} characters, ${D.maxRoles} roles), joined with their pauses and a gap (default ${D.gap.default} s), optional background music ` +
      '(an audio of the user\'s material library, ducked under speech); the price of each voice channel per 100 characters is reserved now, ' +
      'settled on the characters spoken, refunded on failure. The result is one mp3 and its SRT.',
    request: z.object({
      name: workName(),
      lines: dubbingLines,
      gap: num('句间隔', D.gap.min, D.gap.max).default(D.gap.default),
      /** ours reading: a material-library audio id of the user's (the music library of today). */
      bgm_id: optionalId('背景音乐'),
      /** ours: a track of the music library (API.music.library: `lib-<n>` or `my-<n>`); taken before bgm_id when both come. */
      bgm: optionalFilter(musicTrackRef()),
      bgm_volume: num('背景音乐音量', D.bgmVolume.min, D.bgmVolume.max).default(D.bgmVolume.default),
    }),
    response: z.object({ id: z.number() }),
  }),
  list: userCall('GET', '/api/dubbing/list', {
    summary: `The user's dubs, newest first; generate (ours) counts those in progress (the screen polls every ${LIMITS.generationPollMs} ms while > 0).`,
    request: z.object({
      page: page(),
      limit: int('条数', 0, 100).default(D.historyPageSize),
      /** ours: one dub by its id (the public API's GET /dubbings/{id}). */
      id: optionalFilter(int('配音ID', 1)),
    }),
    response: jobPage(DubbingRecord),
  }),
  remove: removeById({ path: '/api/dubbing', pathFromSpec: false, summary: 'Delete a finished or failed dub and its files (the client confirms first).' }, '配音ID'),
  /** ours */
  rename: renameById({ path: '/api/dubbing/rename', pathFromSpec: false, summary: 'ours (the spec leaves it out): rename a dub; answers MSG.renameSucceeded.' }, '配音ID'),
  /** ours */
  save: userCallById('POST', '/api/dubbing/material', '配音ID', {
    summary: 'ours (the spec leaves it out): save a finished dub to the material library — its mp3 as an audio (its own copy) and its script as a text; answers both ids.',
    response: z.object({ audio_id: z.number(), text_id: z.number() }),
  }),
  /** ours */
  prices: userCall('GET', '/api/dubbing/prices', {
    summary: `ours: each enabled voice channel's dubbing price, credits per ${D.priceUnitChars} characters (0 on the offline channel), shown before generating.`,
    request: z.object({}).strip(),
    response: z.object({ list: z.array(DubbingPrice) }),
  }),
});
