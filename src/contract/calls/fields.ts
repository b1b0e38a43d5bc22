/**
 * Field builders shared by the feature files of the call catalogue, on top of ../schema.
 * Every builder speaks Chinese when the value is wrong.
 */
import { z } from 'zod';
import { LIMITS, CHANNEL_APIS } from '../limits';
import { MSG } from '../messages';
import { countChars } from '../script';
import { SUBTITLE_COLORS, SUBTITLE_POSITIONS, SUBTITLE_SIZES } from '../subtitles';
import { callEntry, specCall, uncheckedCall, userCall, type CallEntry, type HttpMethod } from '../call';
import { INT32_MAX, empty, id, int, limit, oneOf, page, plainString, requiredText, text } from '../schema';

/** `YYYY-MM-DD HH:mm:ss`, server local time. */
export const Timestamp = z.string().describe('YYYY-MM-DD HH:mm:ss');

/** 0 or 1 flags in responses. */
export const Flag = z.union([z.literal(0), z.literal(1)]);

/** What every channel list (voice cloning, video) says of a channel; each kind extends it with its own fields. */
export const ChannelBase = z.object({
  api: z.string(),
  name: z.string(),
  desc: z.string(),
  version_name: z.string(),
  /** The channel's price: per voice clone (0 = free) or per second of video. */
  credits: z.number(),
});

/** A number from a closed set, sent as a number or a numeric string. */
export const intOneOf = <const T extends readonly [number, ...number[]]>(label: string, values: T) =>
  z.coerce.number({ error: `${label}取值有误` }).pipe(z.literal(values, { error: `${label}取值有误` }));

/** A 0/1 request flag. */
export const flag = (label: string) => intOneOf(label, [0, 1]);

/** Query filters: '' (the spec's "all" tab) and null read as absent. */
export const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
export const optionalFilter = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** A positive id whose absence is a user mistake with its own message (请上传视频, 请选择声音, …). */
export const requiredId = (message: string) => z.coerce.number({ error: message }).int(message).min(1, message).max(INT32_MAX, message);

/** An id the client may leave out or send as '' (new conversation, new voice). */
export const optionalId = (label: string) =>
  optionalFilter(z.coerce.number({ error: `${label}格式有误` }).int(`${label}格式有误`).min(1, `${label}格式有误`).max(INT32_MAX, `${label}格式有误`));

/** A calendar day `YYYY-MM-DD` that exists (2024-02-30 and 2024-13-45 have the right shape and are refused). */
export const calendarDate = () =>
  plainString('日期', MSG.dateInvalid)
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, MSG.dateInvalid)
    .refine(isCalendarDate, MSG.dateInvalid);

export function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d);
  return y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** A name field (avatars, voices, works, materials, images). */
export const nameField = (message: string) => requiredText('名称', message, LIMITS.nameMaxChars);

/** A work name: optional, '' or absent becomes 未命名 (part 2 §3). */
export const workName = () =>
  text('作品名称', LIMITS.nameMaxChars)
    .optional()
    .transform((v) => v || LIMITS.defaultWorkName);

/** A URL or storage path the server made (upload registration, reference images). */
export const urlField = (label: string) => text(label, 1000);

/** Raw length cap of a script: pause markers do not count toward the limit, but the body stays bounded. */
export const SCRIPT_RAW_MAX = LIMITS.scriptMaxChars * 4;

/** Script text with pause markers; the counted length (markers excluded) is at most `max`. */
export const scriptText = (label: string, message: string, max: number = LIMITS.scriptMaxChars) =>
  plainString(label, message)
    .trim()
    .min(1, message)
    .max(SCRIPT_RAW_MAX, MSG.scriptTooLong(max))
    .refine((v) => countChars(v) <= max, MSG.scriptTooLong(max))
    .describe(label);

/** Voice parameter sliders (part 1/2 §9), ranges from LIMITS.sliders. */
export const slider = (label: string, key: keyof typeof LIMITS.sliders) => {
  const s = LIMITS.sliders[key];
  return z.coerce
    .number({ error: `${label}必须是数字` })
    .min(s.min, `${label}不能小于${s.min}`)
    .max(s.max, `${label}不能大于${s.max}`);
};

/** Channel api codes (limits.ts). */
export const channelApi = (message: string = MSG.channelRequired) => z.enum(CHANNEL_APIS, { error: message });

/** A voice's speed, volume and pitch sliders. */
export const voiceSliders = { rate: slider('语速', 'rate'), volume: slider('音量', 'volume'), pitch: slider('音调', 'pitch') };
/** The voice sliders, each optional. */
export const optionalSliders = { rate: voiceSliders.rate.optional(), volume: voiceSliders.volume.optional(), pitch: voiceSliders.pitch.optional() };

/** ours: how burned-in captions look (src/contract/subtitles.ts): their size, position and colour. */
export const subtitleLook = {
  subtitle_size: oneOf('字幕大小', SUBTITLE_SIZES).default('M'),
  subtitle_position: oneOf('字幕位置', SUBTITLE_POSITIONS).default('bottom'),
  subtitle_color: oneOf('字幕颜色', SUBTITLE_COLORS).default('white'),
};

type EmotionValue = (typeof LIMITS.emotions)[number]['value'];
export const EMOTIONS = LIMITS.emotions.map((e) => e.value) as unknown as readonly [EmotionValue, ...EmotionValue[]];
export const emotion = () => oneOf('情绪', EMOTIONS);

/** A permissive object for calls whose payload the specification does not show. */
export const anyPayload = () => z.object({}).passthrough();

/** A page of a list: its rows and, when the server counts them, the total. */
export const listPage = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number().optional() });

/** A page of a list whose total the server always counts. */
export const countedPage = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number() });

/** A page of background jobs (dubs, music, translated videos); generate (ours) counts those in progress (the screen polls while > 0). */
export const jobPage = <T extends z.ZodType>(item: T) => listPage(item).extend({ generate: z.number().optional() });

/** Which page of a list, and how long a page is. */
export const pageFields = { page: page(), limit: limit() };
/** A request for a page of the user's list, newest first. */
export const pageRequest = z.object(pageFields);
/** The user reads a page of one of their lists at a path we designed; what a page holds differs. */
export const userPageRead = <Res extends z.ZodType>(path: string, body: { summary: string; response: Res }) => userCall('GET', path, { ...body, request: pageRequest });
/** The user reads a page of one of their lists at the path the specification states. */
export const specPageRead = <Res extends z.ZodType>(path: string, body: { summary: string; response: Res }) => specCall('GET', path, { ...body, request: pageRequest });
/** A page of the user's records, or with id (ours) that one record alone (re-opening it). */
export const recordPageRequest = pageRequest.extend({ id: optionalId('记录ID') });

/** A list of own (source 1) or public (source 2) items (avatars, voices), by name. */
export const bySourceRequest = <const T extends readonly [number, ...number[]]>(sources: T, source: T[number]) =>
  z.object({
    source: intOneOf('来源', sources).default(source),
    ...pageFields,
    name: text('名称', LIMITS.nameMaxChars).optional(),
  });

/** The session token in the query of an unchecked stream (EventSource and <audio> cannot set headers). */
export const streamToken = () => requiredText('token', MSG.sessionExpired, 200);

/** A multipart form (one `file` field, the x-token header) answered with the plain reply: its request schema is empty. */
export const multipartCall = <Res extends z.ZodType>(path: string, body: { summary: string; response: Res }) =>
  uncheckedCall('POST', path, { ...body, request: z.object({}) });

/** What differs between the user's own-record calls below: which call, where, and what it does. */
type CallHead = Pick<CallEntry, 'path' | 'pathFromSpec' | 'summary'>;

/** The user deletes one own record by its id (the client confirms first); answers {}. */
export const removeById = (head: CallHead, idLabel: string) =>
  callEntry({ ...head, method: 'DELETE', checked: true, auth: 'user', request: z.object({ id: id(idLabel) }), response: z.object({}) });

/** The user reads a whole short list (channels, themes, categories …) that takes no parameters. */
export const userList = <T extends z.ZodType>(head: CallHead, item: T) =>
  callEntry({ ...head, method: 'GET', checked: true, auth: 'user', request: empty, response: z.object({ list: z.array(item) }) });

/** The user reads something that takes no parameters (a balance, an engine's state, a price list …) at a path we designed. */
export const userRead = <Res extends z.ZodType>(path: string, body: { summary: string; response: Res }) => userCall('GET', path, { ...body, request: empty });

/** The user acts on one own record named by its id (a batch's cancel, a dub's save …); what it answers differs. */
export const userCallById = <Res extends z.ZodType>(method: HttpMethod, path: string, idLabel: string, body: { summary: string; response: Res }) =>
  userCall(method, path, { ...body, request: z.object({ id: id(idLabel) }) });

/** The user renames one own record; answers MSG.renameSucceeded. */
export const renameById = (head: CallHead, idLabel: string) =>
  callEntry({
    ...head, method: 'POST', checked: true, auth: 'user',
    request: z.object({ id: id(idLabel), name: nameField(MSG.renameNameRequired) }),
    response: z.object({}),
  });

/* Shared by image generation and video generation. */

/** An image generation record's status: 3 success (choose, download, delete), 4 failed (delete only), other in progress (ours: 1); video tasks share its success and failure codes. */
export const ImagegenStatus = { Pending: 1, Success: 3, Failed: 4 } as const;

/** A suggested prompt (image prompts, video recommendations); shape ours. */
export const PromptSuggestion = z.object({
  id: z.number(),
  content: z.string(),
  /** ours: sample image, for image-to-video recommendations. */
  image: z.string().optional(),
});
export type PromptSuggestion = z.infer<typeof PromptSuggestion>;

/** The description of what to generate. */
export const generationPrompt = () => requiredText('描述词', MSG.promptRequired, LIMITS.promptMaxChars);
/** An optional picture (reference, first or last frame): a url, '' as none. */
export const pictureUrl = () => z.preprocess(blankToUndefined, urlField('图片').optional());
/** Which of the screen's types (text, image …) a generation request is about: the first when absent. */
export const generationType = <T extends readonly [string, ...string[]]>(types: T) => oneOf('类型', types).default(types[0]);
/** The suggested prompts of one of the screen's types, at the path the specification states. */
export const promptSuggestions = <T extends readonly [string, ...string[]]>(path: string, summary: string, types: T) =>
  specCall('GET', path, { summary, request: z.object({ type: generationType(types) }), response: z.object({ list: z.array(PromptSuggestion) }) });
/** A generation history request of one of the screen's types. */
export const historyRequest = <T extends readonly [string, ...string[]]>(types: T) =>
  z.object({
    type: generationType(types),
    page: page(),
    limit: int('条数', 0, LIMITS.historyLimit).default(LIMITS.historyLimit),
  });
/** A field sent as JSON text: parsed, else refused with `message`; `.pipe()` the parsed value into its schema. */
export const jsonText = (message: string) =>
  z.string({ error: message }).transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  });
