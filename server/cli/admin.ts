/**
 * Operator commands: `npm run admin -- <group> <action> [--flag value] [key=value …]`.
 * With a server running on this DATA_DIR, commands go to it over loopback with the operator key
 * (the embedded database must never be opened by two processes). With none running, the CLI takes the
 * data directory's lock and serves the same calls in-process.
 */
import { parseArgs } from 'node:util';
import { API, OPERATOR_KEY_HEADER, PhotoType, SETTABLE_KEYS, type CallDef } from '../../src/contract';
import { configFromEnv } from '../infra/config';
import { operatorKey, readServerInfo } from '../infra/data-dir';

type Reply = { code: number; msg: string; data: unknown };
type Send = (call: CallDef, body: unknown) => Promise<Reply>;

interface Command {
  usage: string;
  flags: Record<string, { type: 'string' | 'boolean' }>;
  run(send: Send, flags: Record<string, string | boolean | undefined>, rest: string[]): Promise<string>;
}

const num = (v: unknown) => (v === undefined ? undefined : Number(v));

async function ok(send: Send, call: CallDef, body: unknown): Promise<Record<string, unknown>> {
  const reply = await send(call, body);
  if (reply.code !== 0) throw new CliError(reply.msg);
  return reply.data as Record<string, unknown>;
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
    usage: 'avatar publish <视频文件> --name <名称>   (runs the cloning pipeline in the server; the avatar is public once ready)',
    flags: { name: { type: 'string' } },
    async run(send, f, rest) {
      if (rest.length !== 1) throw new CliError('avatar publish needs one video file');
      const { resolve } = await import('node:path');
      const data = await ok(send, API.admin.avatarPublish, { name: f.name, video: resolve(rest[0]!) });
      return `public avatar ${data.id} is being prepared; it appears on the home page once ready`;
    },
  },
  'photo publish': {
    usage: 'photo publish <图片文件> --name <名称> --type pet|person   (png/jpg, checked like an upload; joins the AI pet or person library)',
    flags: { name: { type: 'string' }, type: { type: 'string' } },
    async run(send, f, rest) {
      if (rest.length !== 1) throw new CliError('photo publish needs one image file');
      const type = { person: PhotoType.Person, pet: PhotoType.Pet }[String(f.type)];
      if (!type) throw new CliError('photo publish needs --type pet or --type person');
      const { resolve } = await import('node:path');
      const data = await ok(send, API.photo.publish, { name: f.name, image: resolve(rest[0]!), type });
      return `public ${f.type} picture ${data.id} published`;
    },
  },
  'voice publish': {
    usage: 'voice publish <音频文件> --name <名称> [--channel <api>]   (trains on the channel, default local; public once trained)',
    flags: { name: { type: 'string' }, channel: { type: 'string' } },
    async run(send, f, rest) {
      if (rest.length !== 1) throw new CliError('voice publish needs one audio file');
      const { resolve } = await import('node:path');
      const data = await ok(send, API.admin.voicePublish, { name: f.name, audio: resolve(rest[0]!), api: f.channel });
      return `public voice ${data.id} is training; it appears on the home page once ready`;
    },
  },
  'channel set': {
    usage:
      'channel set <api> [--kind voice|video] [--enabled true|false] [--name …] [--desc …] [--version-name …] [--credits n] [--free-times n] ' +
      '[--train-times n] [--upload-tips …] [--language …] [--engine local|fish|minimax|fishspeech|gptsovits|heygem|none] [--base-url …] [--api-key …] [--model …] ' +
      '[--group-id …] [--timeout-ms n] [--share-dir …] [--server-dir …] [--result-url …] [--result-dir …] [--concurrency n]',
    flags: Object.fromEntries(
      [
        'kind', 'enabled', 'name', 'desc', 'version-name', 'credits', 'free-times', 'train-times', 'upload-tips', 'language', 'engine', 'base-url', 'api-key', 'model',
        'group-id', 'timeout-ms', 'share-dir', 'server-dir', 'result-url', 'result-dir', 'concurrency',
      ].map((k) => [k, { type: 'string' as const }]),
    ),
    async run(send, f, rest) {
      if (rest.length !== 1) throw new CliError('channel set needs one channel api, e.g. channel set fish --enabled true --api-key …');
      const body: Record<string, unknown> = { api: rest[0] };
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
  'videogen kling': {
    usage:
      'videogen kling [--access-key …] [--secret-key …] [--base-url …] [--model kling-v1] [--pro on|off] [--image-engine local|kling]   ' +
      '(text to video needs Kling; image to video stays on the offline camera motion unless --image-engine kling)',
    flags: Object.fromEntries(['access-key', 'secret-key', 'base-url', 'model', 'pro', 'image-engine'].map((k) => [k, { type: 'string' as const }])),
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
      const data = await ok(send, API.generate.videoPromptSet, { list });
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
        const data = await ok(send, API.generate.videoPromptRecommendSet, { type, list });
        counts.push(`${type} ${data.count}`);
      }
      return `recommendations: ${counts.join(', ')}`;
    },
  },
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

async function connect(): Promise<{ send: Send; close(): Promise<void> }> {
  const config = configFromEnv();
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
  const app = await build({ ...config, logLevel: 'warn', runWorker: false, webRoot: undefined });
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

export async function runAdmin(argv: string[]): Promise<string> {
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new CliError(usage());
  const { values, positionals } = parseArgs({ args: argv.slice(2), options: command.flags, allowPositionals: true, strict: true });
  const conn = await connect();
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
