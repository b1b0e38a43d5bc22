/** What the two video generation screens decide without the server: the prompt sent, org_data, prices, the checks. */
import { ImageToVideoMode, LIMITS, MSG, VideoTaskStatus, videoGenerationCredits, type PromptGroup, type VideoEngine, type VideoEngines, type VideoRecord } from '../../contract';

export type VideoKind = 'text' | 'image';
export type VideoMode = 'std' | 'pro';

export interface VideoForm {
  /** What the user typed (orgContent). */
  content: string;
  /** Words picked from the word bank (orgChoosedList). */
  chosen: string[];
  negative: string;
  cfgScale: number;
  mode: VideoMode;
  duration: number;
  ratio: (typeof LIMITS.videoRatios)[number];
  imageMode: number;
  image: string;
  imageTail: string;
}

export const emptyForm = (): VideoForm => ({
  content: '', chosen: [], negative: '', cfgScale: LIMITS.imagination.default, mode: LIMITS.videoModeDefault as VideoMode,
  duration: LIMITS.videoDurations[0], ratio: LIMITS.videoRatios[0], imageMode: ImageToVideoMode.FirstLastFrame, image: '', imageTail: '',
});

/** The prompt sent: the typed text, then the chosen words, joined with Chinese commas. */
export function composePrompt(form: Pick<VideoForm, 'content' | 'chosen'>): string {
  return [form.content.trim(), ...form.chosen].filter(Boolean).join('，');
}

export const orgData = (form: Pick<VideoForm, 'content' | 'chosen'>) => JSON.stringify({ orgContent: form.content, orgChoosedList: form.chosen });

/** A record's form again: org_data when it holds one, else its prompt. */
export function formFromRecord(r: VideoRecord): VideoForm {
  let content = r.prompt ?? '';
  let chosen: string[] = [];
  try {
    const org = JSON.parse(r.org_data || 'null') as { orgContent?: unknown; orgChoosedList?: unknown } | null;
    if (org && typeof org.orgContent === 'string') content = org.orgContent;
    if (org && Array.isArray(org.orgChoosedList)) chosen = org.orgChoosedList.filter((w): w is string => typeof w === 'string');
  } catch {
    // an unreadable org_data refills from the prompt
  }
  return {
    content, chosen, negative: r.negative_prompt, cfgScale: r.cfg_scale, mode: r.mode === 'pro' ? 'pro' : 'std', duration: r.duration, ratio: (LIMITS.videoRatios as readonly string[]).includes(r.aspect_ratio) ? (r.aspect_ratio as VideoForm['ratio']) : LIMITS.videoRatios[0],
    imageMode: r.image_mode === ImageToVideoMode.Reference ? ImageToVideoMode.Reference : ImageToVideoMode.FirstLastFrame, image: r.image, imageTail: r.image_tail,
  };
}

/** Picking a word: a single-choice group's word replaces the group's other words; a multi-choice one toggles. */
export function toggleWord(chosen: string[], group: PromptGroup, word: string): string[] {
  if (chosen.includes(word)) return chosen.filter((w) => w !== word);
  const multi = group.list.find((w) => w.name === word)?.is_multi === 1;
  const others = multi ? chosen : chosen.filter((w) => !group.list.some((g) => g.name === w));
  return [...others, word];
}

export const MODE_LABEL = { std: '标准', pro: '高品质' } as const;

/** The price on the button: the price list times the engine's percent (a camera move made here costs a fraction). */
export const costOf = (form: Pick<VideoForm, 'mode' | 'duration'>, percent = 100) => videoGenerationCredits(form.mode, form.duration, percent);

/**
 * The first problem before submitting (the server checks the same), or null. The prompt is Kling's to draw from: a
 * camera move made here (`local`) keeps it for reference only and goes without one.
 */
export function formProblem(kind: VideoKind, form: VideoForm, engine: VideoEngine | null = 'kling'): string | null {
  if (kind === 'image' && !form.image) return form.imageMode === ImageToVideoMode.Reference ? MSG.referenceImageRequired : MSG.firstFrameRequired;
  if (engine !== 'local' && !composePrompt(form)) return MSG.promptRequired;
  return null;
}

export const imaginationWarns = (cfg: number) => cfg >= LIMITS.imagination.warnAt;

/** `count` items at random (all when there are fewer). */
export function pickRandom<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

export const inProgress = (r: VideoRecord) => r.status !== VideoTaskStatus.Success && r.status !== VideoTaskStatus.Failed;
export const STATUS_TEXT = (r: VideoRecord) => (r.status === VideoTaskStatus.Success ? '已完成' : r.status === VideoTaskStatus.Failed ? '生成失败' : r.status === VideoTaskStatus.Processing ? '生成中' : '排队中');

/** The request of a submit. */
export function submitParams(kind: VideoKind, form: VideoForm) {
  return {
    type: kind, prompt: composePrompt(form), negative_prompt: form.negative.trim(), cfg_scale: form.cfgScale, mode: form.mode, duration: form.duration,
    aspect_ratio: form.ratio, org_data: orgData(form),
    ...(kind === 'image'
      ? { image: form.image, image_mode: form.imageMode, ...(form.imageMode === ImageToVideoMode.FirstLastFrame && form.imageTail ? { image_tail: form.imageTail } : {}) }
      : {}),
  };
}

/** How many recommendations a screen shows at once. */
export const recommendCount = (kind: VideoKind) => (kind === 'image' ? LIMITS.recommendCountImageToVideo : LIMITS.recommendCount);

/** The record the preview shows: the one chosen (or just made), else the newest finished one. */
export const selectedRecord = (list: readonly VideoRecord[], selectedId: number | null) =>
  list.find((r) => r.id === selectedId) ?? list.find((r) => r.status === VideoTaskStatus.Success);

/** What the screen may do once the engines are known: which engine, none at all (cannot generate), 高品质 open. */
export function engineView(engines: VideoEngines | undefined, kind: VideoKind) {
  const engine = engines?.[kind];
  return {
    loaded: engines !== undefined, engine: engine?.engine ?? null, unavailable: engines !== undefined && !engine?.engine, proOpen: engine?.pro === 1,
    percent: engine?.percent ?? 100,
  };
}
