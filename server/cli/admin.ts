/**
 * Operator commands: `npm run admin -- <group> <action> [--flag value] [key=value …]`.
 * With a server running on this DATA_DIR, commands go to it over loopback with the operator key
 * (the embedded database must never be opened by two processes). With none running, the CLI takes the
 * data directory's lock and serves the same calls in-process.
 */
import { parseArgs } from 'node:util';
import { API, LIMITS, OPERATOR_KEY_HEADER, PhotoType, SETTABLE_KEYS, type CallDef } from '../../src/contract';
import { configFromEnv } from '../infra/config';
import { operatorKey, readServerInfo } from '../infra/data-dir';

type Reply = { code: number; msg: string; data: unknown };
type Send = (call: CallDef, body: unknown) => Promise<Reply>;

type Flags = Record<string, string | boolean | undefined>;

interface Command {
  usage: string;
  flags: Record<string, { type: 'string' | 'boolean' }>;
  run(send: Send, flags: Flags, rest: string[]): Promise<string>;
  /** With no server running, the in-process server runs the job worker too (publish --wait needs the job done). */
  needsWorker?(flags: Flags): boolean;
}

const num = (v: unknown) => (v === undefined ? undefined : Number(v));

async function ok(send: Send, call: CallDef, body: unknown): Promise<Record<string, unknown>> {
  const reply = await send(call, body);
  if (reply.code !== 0) throw new CliError(reply.msg);
  return reply.data as Record<string, unknown>;
}

/** Rows as aligned columns (CJK characters count two columns wide). */
function table(head: string[], rows: (string | number)[][]): string {
  const width = (v: string) => [...v].reduce((w, ch) => w + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => width(r[i] ?? ''))));
  return cells.map((r) => r.map((v, i) => (i === r.length - 1 ? v : v + ' '.repeat(widths[i]! - width(v)))).join('  ')).join('\n');
}

const day = (isoTime: unknown) => String(isoTime).slice(0, 10);
const minute = (isoTime: unknown) => String(isoTime).slice(0, 16).replace('T', ' ');

type Media = { id: number; name: string; owner: string; state: string; reason: string; detail: string; created_at: string };

function mediaTable(list: Media[], detail: string): string {
  if (list.length === 0) return 'none';
  return table(['id', 'name', 'state', detail, 'created', 'reason'], list.map((m) => [m.id, m.name, m.state, m.detail || '-', minute(m.created_at), m.reason || '-']));
}

/** `--public` (the default) or `--user <手机号>`, not both. */
function mediaOwner(f: Flags): string | undefined {
  if (f.public && f.user) throw new CliError('--public and --user exclude each other');
  return typeof f.user === 'string' ? f.user : undefined;
}

/** `voice list` and `avatar list`: the public ones, or one user's. */
function mediaList(kind: string, call: CallDef, detail: string, what: string): Command {
  return {
    usage: `${kind} list [--public | --user <手机号>] [--limit n]   (${what})`,
    flags: { public: { type: 'boolean' }, user: { type: 'string' }, limit: { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, call, { username: mediaOwner(f), limit: num(f.limit) });
      return mediaTable(data.list as Media[], detail);
    },
  };
}

const BOT_FLAGS = {
  type: { type: 'string' }, name: { type: 'string' }, desc: { type: 'string' }, avatar: { type: 'string' }, 'prompt-file': { type: 'string' },
  voice: { type: 'string' }, welcome: { type: 'string' }, credits: { type: 'string' },
} as const;

/** A bot's fields from the flags given: the prompt read from its file, a picture's path made absolute (the server reads it). */
async function botBody(f: Flags): Promise<Record<string, unknown>> {
  const { readFileSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  let prompt: string | undefined;
  if (typeof f['prompt-file'] === 'string') {
    try {
      prompt = readFileSync(f['prompt-file'], 'utf8');
    } catch (err) {
      throw new CliError(`cannot read ${f['prompt-file']} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  const avatar = typeof f.avatar === 'string' && !/^\d+$/.test(f.avatar) ? resolve(f.avatar) : f.avatar;
  return { type: f.type, name: f.name, desc: f.desc, avatar, prompt, voice_id: num(f.voice), welcome: f.welcome, credits: num(f.credits) };
}

const WAIT_FLAGS = { wait: { type: 'boolean' as const }, timeout: { type: 'string' as const } };

/**
 * `publish --wait`: polls the published item until it is ready (returns) or failed (throws with its reason, so the
 * command exits non-zero), for at most --timeout seconds (default 1800).
 */
/** The one argument a command takes (a file, an id, a name), else the error that says what it needs. */
function oneArg(rest: readonly string[], needs: string): string {
  if (rest.length !== 1) throw new CliError(needs);
  return rest[0]!;
}

/** A command with no flags whose one argument (an id, a name) is all it needs; without it, `needs` says so. */
function withOneArg(usage: string, needs: string, run: (send: Send, arg: string) => Promise<string>): Command {
  return { usage, flags: {}, run: (send, _f, rest) => run(send, oneArg(rest, needs)) };
}

/** The one file a publish command takes, as an absolute path: the server reads it on this machine. */
async function oneFile(rest: readonly string[], needs: string): Promise<string> {
  const { resolve } = await import('node:path');
  return resolve(oneArg(rest, needs));
}

async function waitUntilDone(send: Send, call: CallDef, id: number, what: string, f: Flags): Promise<string> {
  const timeoutSeconds = f.timeout === undefined ? 1800 : Number(f.timeout);
  if (!(timeoutSeconds > 0)) throw new CliError('--timeout needs a number of seconds');
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const [item] = (await ok(send, call, { id })).list as Media[];
    if (!item) throw new CliError(`${what} ${id} is gone`);
    if (item.state === 'ready') return `${what} ${id} (${item.name}) is ready`;
    if (item.state === 'failed') throw new CliError(`${what} ${id} (${item.name}) failed: ${item.reason || 'no reason recorded'}`);
    if (Date.now() > deadline) throw new CliError(`${what} ${id} is still ${item.state} after ${timeoutSeconds} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export const COMMANDS: Record<string, Command> = {
  'user create': {
    usage: 'user create --username <手机号> --password <密码> [--credits <n>] [--expires-days <d>]',
    flags: { username: { type: 'string' }, password: { type: 'string' }, credits: { type: 'string' }, 'expires-days': { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, API.admin.userCreate, {
        username: f.username, password: f.password, credits: num(f.credits), expires_days: num(f['expires-days']),
      });
      return `created user ${data.username} (id ${data.id}) with ${data.credits} credits`;
    },
  },
  'code create': {
    usage: 'code create --credits <n> [--count <k>] [--expires-days <d>]',
    flags: { credits: { type: 'string' }, count: { type: 'string' }, 'expires-days': { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, API.admin.codeCreate, { credits: num(f.credits), count: num(f.count), expires_days: num(f['expires-days']) });
      return (data.codes as string[]).join('\n');
    },
  },
  'notice add': {
    usage: 'notice add --title <标题> [--desc <摘要>] [--content-file <HTML文件>]',
    flags: { title: { type: 'string' }, desc: { type: 'string' }, 'content-file': { type: 'string' } },
    async run(send, f) {
      const { readFileSync } = await import('node:fs');
      const content = typeof f['content-file'] === 'string' ? readFileSync(f['content-file'], 'utf8') : '';
      const data = await ok(send, API.admin.noticeAdd, { title: f.title, desc: f.desc, content });
      return `published notice ${data.id}`;
    },
  },
  'guide add': {
    usage: 'guide add --category <分类> --name <名称> --cover <图片文件或https地址> --video <视频文件或https地址>',
    flags: { category: { type: 'string' }, name: { type: 'string' }, cover: { type: 'string' }, video: { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, API.admin.guideAdd, { category: f.category, name: f.name, cover: f.cover, video: f.video });
      return `added guide ${data.id}`;
    },
  },
  'avatar publish': {
    usage: 'avatar publish <视频文件> --name <名称> [--wait [--timeout <秒>]]   (runs the cloning pipeline in the server; the avatar is public once ready)',
    flags: { name: { type: 'string' }, ...WAIT_FLAGS },
    needsWorker: (f) => Boolean(f.wait),
    async run(send, f, rest) {
      const file = await oneFile(rest, 'avatar publish needs one video file');
      const data = await ok(send, API.admin.avatarPublish, { name: f.name, video: file });
      if (f.wait) return waitUntilDone(send, API.admin.avatarList, Number(data.id), 'public avatar', f);
      return `public avatar ${data.id} is being prepared; it appears on the home page once ready`;
    },
  },
  'photo publish': {
    usage: 'photo publish <图片文件> --name <名称> --type pet|person   (png/jpg, checked like an upload; joins the AI pet or person library)',
    flags: { name: { type: 'string' }, type: { type: 'string' } },
    async run(send, f, rest) {
      const file = await oneFile(rest, 'photo publish needs one image file');
      const type = { person: PhotoType.Person, pet: PhotoType.Pet }[String(f.type)];
      if (!type) throw new CliError('photo publish needs --type pet or --type person');
      const data = await ok(send, API.photo.publish, { name: f.name, image: file, type });
      return `public ${f.type} picture ${data.id} published`;
    },
  },
  'voice publish': {
    usage: 'voice publish <音频文件> --name <名称> [--channel <api>] [--wait [--timeout <秒>]]   (trains on the channel, default local; public once trained)',
    flags: { name: { type: 'string' }, channel: { type: 'string' }, ...WAIT_FLAGS },
    needsWorker: (f) => Boolean(f.wait),
    async run(send, f, rest) {
      const file = await oneFile(rest, 'voice publish needs one audio file');
      const data = await ok(send, API.admin.voicePublish, { name: f.name, audio: file, api: f.channel });
      if (f.wait) return waitUntilDone(send, API.admin.voiceList, Number(data.id), 'public voice', f);
      return `public voice ${data.id} is training; it appears on the home page once ready`;
    },
  },
  'voice remove': withOneArg(
    'voice remove <公共声音ID>   (the voice leaves the public list; works made with it keep their sound; see voice list)',
    'voice remove needs one public voice id',
    async (send, id) => {
      const data = await ok(send, API.admin.voiceRemove, { id });
      return `public voice ${data.id} (${data.name}) removed`;
    },
  ),
  'voice list': mediaList('voice', API.admin.voiceList, 'channel', "each voice's training state, channel and failure reason"),
  'avatar list': mediaList('avatar', API.admin.avatarList, 'face', "each avatar's cloning state, face note and failure reason"),
  'user list': {
    usage: 'user list [--search <手机号片段>] [--limit n]   (credits left, space used / allowed, live sessions)',
    flags: { search: { type: 'string' }, limit: { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, API.admin.userList, { search: f.search, limit: num(f.limit) });
      type User = { id: number; username: string; tourist: boolean; credits: number; space_used_mb: number; space_total_gb: number; sessions: number; created_at: string };
      const list = data.list as User[];
      const rows = list.map((u) => [u.id, u.username + (u.tourist ? ' (游客)' : ''), u.credits, `${u.space_used_mb} MB / ${u.space_total_gb} GB`, u.sessions, day(u.created_at)]);
      return `${table(['id', 'username', 'credits', 'space', 'sessions', 'created'], rows)}\n${list.length} of ${data.total} accounts`;
    },
  },
  'user show': withOneArg('user show <手机号>   (credits and their batches, space, live sessions, works by state)', 'user show needs one username', async (send, username) => {
    const u = await ok(send, API.admin.userShow, { username });
    const batches = u.batches as { amount: number; left: number; source: string; expires_at: string }[];
    const sessions = u.session_list as { created_at: string; expires_at: string; ip: string }[];
    const works = Object.entries(u.works as Record<string, number>);
    return [
      `user ${u.id} ${u.username}${u.tourist ? ' (游客)' : ''}, created ${minute(u.created_at)}`,
      `credits: ${u.credits} left (granted ${u.granted}, spent ${u.spent}, refunded ${u.refunded})`,
      ...(batches.length ? [table(['  left', 'of', 'source', 'expires'], batches.map((b) => [`  ${b.left}`, b.amount, b.source, day(b.expires_at)]))] : []),
      `space: ${u.space_used_mb} MB used of ${u.space_total_gb} GB`,
      `sessions: ${sessions.length} live`,
      ...(sessions.length ? [table(['  since', 'until', 'ip'], sessions.map((s) => [`  ${minute(s.created_at)}`, minute(s.expires_at), s.ip || '-']))] : []),
      `works: ${works.length ? works.map(([state, n]) => `${n} ${state}`).join(', ') : 'none'}`,
    ].join('\n');
  }),
  jobs: {
    usage: 'jobs [--failures n]   (jobs by name and state; the latest failed or retried runs with their reasons)',
    flags: { failures: { type: 'string' } },
    async run(send, f) {
      const data = await ok(send, API.admin.jobs, { failures: num(f.failures) });
      const counts = data.counts as { name: string; state: string; n: number }[];
      const states = [...new Set(counts.map((c) => c.state))].sort();
      const names = [...new Set(counts.map((c) => c.name))].sort();
      const byName = names.map((name) => [name, ...states.map((state) => counts.find((c) => c.name === name && c.state === state)?.n ?? 0)]);
      const failures = data.failures as { id: string; name: string; state: string; attempt: number; at: string; reason: string }[];
      return [
        counts.length ? table(['job', ...states], byName) : 'no jobs',
        '',
        failures.length ? `latest failures:\n${table(['at', 'job', 'id', 'state', 'attempt', 'reason'], failures.map((j) => [minute(j.at), j.name, j.id, j.state, j.attempt, j.reason.split('\n')[0]!]))}` : 'no failures',
      ].join('\n');
    },
  },
  'channel set': {
    usage:
      'channel set <api> [--kind voice|video] [--enabled true|false] [--name …] [--desc …] [--version-name …] [--credits n] [--dub-credits n] [--free-times n] ' +
      '[--train-times n] [--upload-tips …] [--language …] [--engine local|fish|minimax|fishspeech|gptsovits|heygem|none] [--base-url …] [--api-key …] [--model …] ' +
      '[--group-id …] [--timeout-ms n] [--share-dir …] [--server-dir …] [--result-url …] [--result-dir …] [--concurrency n]',
    flags: Object.fromEntries(
      [
        'kind', 'enabled', 'name', 'desc', 'version-name', 'credits', 'dub-credits', 'free-times', 'train-times', 'upload-tips', 'language', 'engine', 'base-url', 'api-key', 'model',
        'group-id', 'timeout-ms', 'share-dir', 'server-dir', 'result-url', 'result-dir', 'concurrency',
      ].map((k) => [k, { type: 'string' as const }]),
    ),
    async run(send, f, rest) {
      const api = oneArg(rest, 'channel set needs one channel api, e.g. channel set fish --enabled true --api-key …');
      const body: Record<string, unknown> = { api };
      for (const [flag, value] of Object.entries(f)) if (value !== undefined) body[flag.replace(/-/g, '_')] = value;
      // Mounted folders (results, shared references) are used by the server: named from where the operator stands.
      for (const key of ['result_dir', 'share_dir'] as const) {
        if (typeof body[key] === 'string' && body[key]) body[key] = (await import('node:path')).resolve(body[key]);
      }
      const data = await ok(send, API.admin.channelSet, body);
      const configured = (data.configured as string[]).join(', ') || 'nothing';
      return `${data.kind} channel ${data.api}: ${data.enabled ? 'enabled' : 'disabled'}, engine ${data.engine} (configured: ${configured})`;
    },
  },
  'image set': {
    usage:
      'image set --engine openai|siliconflow|kling|none [--api-key …] [--secret-key …] [--base-url …] [--model …] [--timeout-ms n]   (text to image; ' +
      'openai: https://api.openai.com/v1, gpt-image-1 — also Zhipu CogView with its base URL; siliconflow: https://api.siliconflow.cn/v1, Kwai-Kolors/Kolors; ' +
      'kling: --api-key <AccessKey> --secret-key <SecretKey>, https://api-beijing.klingai.com, kling-v1)',
    flags: Object.fromEntries(['engine', 'api-key', 'secret-key', 'base-url', 'model', 'timeout-ms'].map((k) => [k, { type: 'string' as const }])),
    async run(send, f) {
      if (!f.engine) throw new CliError('image set needs --engine openai, siliconflow or none');
      const data = await ok(send, API.imagegen.engineSet, {
        engine: f.engine, api_key: f['api-key'], secret_key: f['secret-key'], base_url: f['base-url'], model: f.model, timeout_ms: num(f['timeout-ms']),
      });
      return data.configured ? `image engine ${data.engine}: ${data.base_url}, model ${data.model}` : 'image engine off: text to image says it is not configured';
    },
  },
  'image prompt': {
    usage: 'image prompt <描述词> …   (adds suggested text-to-image prompts, one per argument)',
    flags: {},
    async run(send, _f, rest) {
      if (rest.length === 0) throw new CliError('image prompt needs at least one prompt');
      for (const content of rest) await ok(send, API.imagegen.promptAdd, { content });
      return `added ${rest.length} prompt(s)`;
    },
  },
  'videogen kling': {
    usage:
      'videogen kling [--access-key …] [--secret-key …] [--base-url …] [--model kling-v1] [--pro on|off] [--image-engine local|kling] [--local-percent 1-100]   ' +
      '(text to video needs Kling; image to video stays on the offline camera motion unless --image-engine kling; that camera move costs ' +
      `--local-percent of Kling's price, ${LIMITS.videoLocalPercent} by default)`,
    flags: Object.fromEntries(['access-key', 'secret-key', 'base-url', 'model', 'pro', 'image-engine', 'local-percent'].map((k) => [k, { type: 'string' as const }])),
    async run(send, f) {
      const settings: Record<string, string> = {};
      const keys = { 'access-key': 'kling_access_key', 'secret-key': 'kling_secret_key', 'base-url': 'kling_base_url', model: 'kling_model' } as const;
      for (const [flag, key] of Object.entries(keys)) if (typeof f[flag] === 'string') settings[key] = f[flag];
      if (f.pro !== undefined) {
        if (!['on', 'off'].includes(String(f.pro))) throw new CliError('--pro takes on or off');
        settings.video_pro_enabled = f.pro === 'on' ? '1' : '0';
      }
      if (f['image-engine'] !== undefined) {
        if (!['local', 'kling'].includes(String(f['image-engine']))) throw new CliError('--image-engine takes local or kling');
        settings.video_image_engine = String(f['image-engine']);
      }
      if (f['local-percent'] !== undefined) {
        const percent = Number(f['local-percent']);
        if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new CliError('--local-percent takes a whole number from 1 to 100');
        settings.videogen_local_percent = String(percent);
      }
      if (!Object.keys(settings).length) throw new CliError('videogen kling needs at least one flag, e.g. --access-key … --secret-key …');
      const data = await ok(send, API.admin.siteSet, { settings });
      return `updated: ${(data.updated as string[]).join(', ')}`;
    },
  },
  'videogen words': {
    usage: 'videogen words [--file <JSON>]   (replaces the inspiration word bank: [{name, list: [{name, demo_url?, is_multi?}]}]; default: the bundled sample)',
    flags: { file: { type: 'string' } },
    async run(send, f) {
      const list = await readSeed(f.file, 'word-bank.json');
      const data = await ok(send, API.videogen.promptsSet, { list });
      return `word bank: ${data.groups} groups, ${data.words} words`;
    },
  },
  'videogen recommend': {
    usage:
      'videogen recommend [--file <JSON>] [--type text|image]   (replaces the recommendations: {text: [{content}], image: [{content, image?}]} ' +
      'or a list for --type; image is a png/jpg path beside the file or an https address; default: the bundled sample)',
    flags: { file: { type: 'string' }, type: { type: 'string' } },
    async run(send, f) {
      const { dirname, resolve } = await import('node:path');
      const seed = await readSeed(f.file, 'recommendations.json');
      const base = typeof f.file === 'string' ? dirname(resolve(f.file)) : '';
      const byType = (Array.isArray(seed) ? { [String(f.type ?? '')]: seed } : seed) as Record<string, { content: string; image?: string }[]>;
      const types = Object.keys(byType).filter((type) => !f.type || type === f.type);
      if (!types.length || types.some((type) => type !== 'text' && type !== 'image')) throw new CliError('recommendations are grouped by type text or image (or give --type with a list)');
      const counts: string[] = [];
      for (const type of types) {
        const list = byType[type]!.map((r) => ({ content: r.content, image: r.image && !/^https?:\/\//.test(r.image) ? resolve(base, r.image) : (r.image ?? '') }));
        const data = await ok(send, API.videogen.recommendSet, { type, list });
        counts.push(`${type} ${data.count}`);
      }
      return `recommendations: ${counts.join(', ')}`;
    },
  },
  'music set': {
    usage:
      'music set --engine minimax|none [--api-key …] [--base-url …] [--model music-2.6]   ' +
      "(AI music on MiniMax, with its own key or the voice channel mm's; none turns generation off, the library stays)",
    flags: Object.fromEntries(['engine', 'api-key', 'base-url', 'model'].map((k) => [k, { type: 'string' as const }])),
    async run(send, f) {
      if (typeof f.engine !== 'string') throw new CliError('music set needs --engine minimax or --engine none');
      const data = await ok(send, API.music.engineSet, { engine: f.engine, api_key: f['api-key'], base_url: f['base-url'], model: f.model });
      if (data.engine === 'none') return 'AI music generation is off (the music library still works)';
      return `AI music on MiniMax, with ${data.key === 'own' ? 'its own key' : "the voice channel mm's key"}`;
    },
  },
  'music publish': {
    usage: 'music publish <音频文件> --name <名称> [--mood <情绪>]   (a music library track, checked like an upload and loudness-normalised)',
    flags: { name: { type: 'string' }, mood: { type: 'string' } },
    async run(send, f, rest) {
      const file = await oneFile(rest, 'music publish needs one audio file');
      const data = await ok(send, API.music.publish, { name: f.name, audio: file, mood: f.mood });
      return `music library track ${data.id} published (${data.duration} s)`;
    },
  },
  'bot add': {
    usage:
      'bot add --type <分类> --name <名称> --desc <简介> --avatar <图片文件或公共分身ID> --prompt-file <系统提示词文件> ' +
      '[--voice <公共声音ID>] [--welcome <开场白>] [--credits <每条回答积分>]   (an AI super employee)',
    flags: BOT_FLAGS,
    async run(send, f) {
      const data = await ok(send, API.bot.add, await botBody(f));
      return `added bot ${data.id}`;
    },
  },
  'bot list': {
    usage: 'bot list   (every bot; the prompt by its length only)',
    flags: {},
    async run(send) {
      const list = (await ok(send, API.bot.adminList, {})).list as { id: number; type: string; name: string; voice_id: number; credits: number; prompt_chars: number; employees: number; avatar_id: number }[];
      if (list.length === 0) return 'none';
      return table(
        ['id', 'type', 'name', 'avatar', 'voice', 'credits', 'prompt', 'employed by'],
        list.map((b) => [b.id, b.type, b.name, b.avatar_id ? `avatar ${b.avatar_id}` : 'picture', b.voice_id || '-', b.credits, `${b.prompt_chars} chars`, b.employees]),
      );
    },
  },
  'bot update': {
    usage: 'bot update <id> [--type …] [--name …] [--desc …] [--avatar …] [--prompt-file …] [--voice …] [--welcome …] [--credits …]   (changes only what is given)',
    flags: BOT_FLAGS,
    async run(send, f, rest) {
      const id = oneArg(rest, 'bot update needs one bot id');
      await ok(send, API.bot.update, { id: num(id), ...(await botBody(f)) });
      return `updated bot ${id}`;
    },
  },
  'bot remove': withOneArg('bot remove <id>   (off the catalogue and off everyone\'s employees; conversations stay readable)', 'bot remove needs one bot id', async (send, id) => {
    await ok(send, API.bot.remove, { id: num(id) });
    return `removed bot ${id}`;
  }),
  'site set': {
    usage: 'site set <key>=<value> …   (value may be @file to read it from a file)',
    flags: {},
    async run(send, _f, rest) {
      if (rest.length === 0) throw new CliError('site set needs at least one key=value');
      const { readFileSync } = await import('node:fs');
      const settings: Record<string, string> = {};
      for (const pair of rest) {
        const at = pair.indexOf('=');
        if (at < 1) throw new CliError(`expected key=value, got "${pair}"`);
        const key = pair.slice(0, at);
        if (!(SETTABLE_KEYS as readonly string[]).includes(key)) throw new CliError(`unknown setting "${key}"; settable: ${SETTABLE_KEYS.join(', ')}`);
        const value = pair.slice(at + 1);
        settings[key] = value.startsWith('@') ? readSettingFile(readFileSync, key, value.slice(1)) : value;
      }
      const data = await ok(send, API.admin.siteSet, { settings });
      return `updated: ${(data.updated as string[]).join(', ')}`;
    },
  },
};

export class CliError extends Error {}

/** A seed file's JSON: the operator's file, or the sample bundled with the video generation feature. */
async function readSeed(file: string | boolean | undefined, bundled: string): Promise<unknown> {
  const { readFileSync } = await import('node:fs');
  const path = typeof file === 'string' ? file : new URL(`../features/videogen/seed/${bundled}`, import.meta.url);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CliError(`cannot read ${String(path)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** `key=@file`: the file's text, or a plain message naming the file (not a stack trace). */
function readSettingFile(read: (file: string, encoding: 'utf8') => string, key: string, file: string): string {
  try {
    return read(file, 'utf8');
  } catch (err) {
    throw new CliError(`${key}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

function usage(): string {
  return ['Usage: npm run admin -- <command>', ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join('\n');
}

async function connect(runWorker: boolean, env: NodeJS.ProcessEnv): Promise<{ send: Send; close(): Promise<void> }> {
  const config = configFromEnv(env);
  const key = operatorKey(config.dataDir);
  const running = readServerInfo(config.dataDir);
  if (running) {
    return {
      send: async (call, body) => {
        const res = await fetch(new URL(call.path, running.url), {
          method: call.method,
          headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key },
          body: JSON.stringify(body),
        });
        return (await res.json()) as Reply;
      },
      close: async () => undefined,
    };
  }
  const { build } = await import('../app');
  const app = await build({ ...config, logLevel: 'warn', runWorker, webRoot: undefined });
  return {
    send: async (call, body) => {
      const res = await app.inject({
        method: call.method, url: call.path, remoteAddress: '127.0.0.1',
        headers: { [OPERATOR_KEY_HEADER]: key }, payload: body as object,
      });
      return res.json() as Reply;
    },
    close: () => app.close(),
  };
}

/** One command, as `npm run admin -- …argv` runs it; `env` is the environment it reads (DATA_DIR, DATABASE_URL…). */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  // Commands are one word (jobs) or two (user list).
  const words = COMMANDS[argv.slice(0, 2).join(' ')] ? 2 : 1;
  const command = COMMANDS[argv.slice(0, words).join(' ')];
  if (!command) throw new CliError(usage());
  const { values, positionals } = parseArgs({ args: argv.slice(words), options: command.flags, allowPositionals: true, strict: true });
  const conn = await connect(command.needsWorker?.(values) ?? false, env);
  try {
    return await command.run(conn.send, values, positionals);
  } finally {
    await conn.close();
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  runAdmin(process.argv.slice(2))
    .then((out) => {
      console.log(out);
      process.exit(0);
    })
    .catch((err) => {
      console.error(err instanceof CliError || err instanceof TypeError ? err.message : err);
      process.exit(1);
    });
}
