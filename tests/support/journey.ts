/** What every browser journey does around its screens: its server, accounts and browser, operator calls, API logins, logging in a page, toasts. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { API, MSG, OPERATOR_KEY_HEADER, type Avatar, type CallDef, type Voice } from '../../src/contract';
import { ApiTestClient, TEST_PASSWORD, preparedData, type TestApp } from './app';
import { describeLentTabs, launchBrowser, newPage, pastQuickThrottle, returnTabs, submitLogin, type PageTimings } from './browser';
import { helperWebRoot } from './build-global';
import { closeCounted } from './file-cpu';
import { probe } from '../../server/infra/media-probe';
import { mediaDir as newMediaDir } from './media';
import { readyAvatar } from './ready-avatar';
import { startFishAudioPeer, type FishAudioPeer } from './peers/fish-audio-peer';
import { adminOnServer, startServer, type RunningServer } from './server';
import { until } from './wait';

export type PageOptions = NonNullable<Parameters<typeof newPage>[1]>;
type OpenPage = { page: Page; context: BrowserContext };

/** What a journey file works with; the server is filled in before the file's first test. */
export interface Journey {
  /** The built app served by the real server (`server/main.ts`) with its own data directory. */
  server: RunningServer;
  /** Where pages open the app: the server's address, or a helper host's name on its port (`target: 'helper'`). */
  appUrl(): string;
  /** A fresh browser context and page (zh-CN, Asia/Shanghai). */
  newPage(options?: PageOptions): Promise<OpenPage>;
  /** A fresh page that opens `route`, logs in as `username` (password TEST_PASSWORD) and waits for the route's panel. */
  loggedInPage(username: string, route: string, options?: PageOptions): Promise<OpenPage>;
  /** `username` logged in through the API. */
  apiClient(username: string): Promise<ApiTestClient>;
  operator<T = { id: number }>(call: CallDef, body: Record<string, unknown>): Promise<T>;
  /** A folder for the file's media, removed after its tests. */
  mediaDir(): string;
  /** A Fish Audio peer on loopback, made the server's enabled fish channel with the operator CLI; closed after the file. */
  fishChannel(): Promise<FishAudioPeer>;
}

/** A helper host of plugins.manifest.json: the helper build shows its plugin only there. */
const HELPER_HOST = 'helper1.example.com';

/**
 * One journey for the file: before its tests, the server on the built app (inject('webRoot')), the accounts
 * (password TEST_PASSWORD; `users` as username → credits, or a list that each gets `credits`) and Chromium;
 * after them, all of it stopped and removed. `env` is added to the server's environment; `timings` shortens client
 * timers in every page of the journey (a page's own `timings` option adds to them). `arrange` fills the server's data
 * directory and database in process before the server starts (e.g. `readyAvatar` for public avatars the journey
 * uses but whose cloning it does not test): the clone pipeline's work then comes from the run's media cache.
 */
export function useJourney(
  options: {
    users?: Record<string, number> | string[]; credits?: number; env?: Record<string, string>; timings?: PageTimings; arrange?: (t: TestApp) => Promise<void>;
    /** 'helper': the helper build (plugins.manifest.json), built for this file, and pages on a helper host that resolves to loopback. */
    target?: 'helper';
    /** A wav that Chromium's fake microphone plays (looped), granted without asking: for the journeys that record (hold to talk). */
    fakeMicrophone?: string;
  } = {},
): Journey {
  const server = {} as RunningServer;
  let browser: Browser | undefined;
  let launching: Promise<Browser> | undefined;
  let stopping = false;
  const dirs: string[] = [];
  const peers: FishAudioPeer[] = [];
  const withTimings = (pageOptions: PageOptions = {}): PageOptions =>
    options.timings || pageOptions.timings ? { ...pageOptions, timings: { ...options.timings, ...pageOptions.timings } } : pageOptions;
  beforeAll(async () => {
    // `env` is read now, so a hook registered before useJourney may fill it (a peer's port).
    const dataDir = options.arrange ? (await preparedData('pglite', undefined, options.arrange)).dataDir : undefined;
    // Chromium starts while the server does.
    const launched = (launching = launchBrowser([
      ...(options.target === 'helper' ? [`--host-resolver-rules=MAP ${HELPER_HOST} 127.0.0.1`] : []),
      ...(options.fakeMicrophone ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${options.fakeMicrophone}`] : []),
    ]));
    launched.catch(() => undefined);
    const webRoot = options.target === 'helper' ? await helperWebRoot(inject('webRoot')) : inject('webRoot');
    const started = await startServer({ webRoot, env: options.env, dataDir });
    // The operator's commands go through the CLI's code in this process (adminOnServer), not a process each.
    Object.assign(server, started, { admin: (...args: string[]) => adminOnServer(started.dataDir, args, options.env) });
    // If the server dies mid-run, say why instead of a wall of ECONNREFUSED.
    server.process.once('exit', (code, signal) => {
      if (!stopping) console.error(`[journey] server exited (${code ?? signal}):\n${server.output().slice(-4000)}`);
    });
    const users = Array.isArray(options.users) ? Object.fromEntries(options.users.map((u) => [u, options.credits ?? 0])) : (options.users ?? {});
    for (const [username, credits] of Object.entries(users)) await operatorCall(server, API.admin.userCreate, { username, password: TEST_PASSWORD, credits });
    browser = await launched;
    // Arranging may analyse a face clip the run has not analysed yet, which takes minutes on a loaded machine.
  }, options.arrange || options.target ? 420_000 : undefined);
  // A page a test left open goes back for the next test, as one it closed does; a failed test first says what its pages
  // showed and what the server said last.
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      console.error(`[journey] ${task.name} failed; its pages:\n${await describeLentTabs(browser)}\n[journey] the server's last output:\n${server.output?.().slice(-3000) ?? ''}`);
    }
    await returnTabs(browser);
  });
  afterAll(async () => {
    stopping = true;
    // A browser launched for a server that then failed to start is closed too.
    const opened = browser ?? (await launching?.catch(() => undefined));
    if (opened) await closeCounted(() => opened.close());
    await server.stop?.();
    for (const peer of peers) await peer.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const appUrl = () => (options.target === 'helper' ? server.url.replace('127.0.0.1', HELPER_HOST) : server.url);
  return {
    server,
    appUrl,
    newPage: (pageOptions) => newPage(browser!, withTimings(pageOptions)),
    loggedInPage: (username, route, pageOptions) => loggedInPage(browser!, { ...server, url: appUrl() }, username, TEST_PASSWORD, route, withTimings(pageOptions)),
    apiClient: (username) => apiLogin(server, username, TEST_PASSWORD),
    operator: (call, body) => operatorCall(server, call, body),
    mediaDir() {
      const dir = newMediaDir();
      dirs.push(dir);
      return dir;
    },
    async fishChannel() {
      const fish = await startFishAudioPeer();
      peers.push(fish);
      await server.admin('channel', 'set', 'fish', '--enabled', 'true', '--base-url', fish.url, '--api-key', fish.apiKey);
      return fish;
    },
  };
}

/**
 * An `arrange` for journeys that use public avatars without testing their cloning (the CLI's `avatar publish` runs
 * the whole pipeline; its own spec is server/cli/operations.spec.ts): each name's clip, made by its function in a
 * fresh media folder, becomes a ready public avatar as the finished clone job leaves it.
 */
export const publicAvatars = (avatars: Record<string, (dir: string) => string>) => async (t: TestApp) => {
  const dir = newMediaDir();
  for (const [name, make] of Object.entries(avatars)) await readyAvatar(t, null, make(dir), name);
};

/** A public avatar by name, ready (arranged ones are before the server starts); throws when it is not. */
export async function publicAvatar(client: ApiTestClient, name: string): Promise<Avatar> {
  const { hlist, slist } = (await client.call(API.avatars.publicList, { source: 2, page: 1, limit: 100 })).data as { hlist: Avatar[]; slist: Avatar[] };
  const avatar = [...hlist, ...slist].find((a) => a.name === name);
  if (avatar?.status !== 3) throw new Error(`public avatar ${name} is not ready: ${JSON.stringify(avatar)}`);
  return avatar;
}

/** The public voices once every one named has trained (`voice publish` trains them in the server). */
export async function trainedPublicVoices(client: ApiTestClient, ...names: string[]): Promise<Voice[]> {
  return until(
    async () => (await client.call(API.voices.list, { source: 2, page: 1, limit: 100 })).data.list as Voice[],
    (list) => names.every((n) => list.some((v) => v.name === n && v.generate_status === 2)),
    120_000,
    500,
  );
}

/** An operator call with the data directory's key (what `npm run admin` sends); throws on code ≠ 0. */
export async function operatorCall<T = { id: number }>(server: RunningServer, call: CallDef, body: Record<string, unknown>): Promise<T> {
  const key = fs.readFileSync(path.join(server.dataDir, 'operator.key'), 'utf8').trim();
  const res = await fetch(`${server.url}${call.path}`, { method: call.method, headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key }, body: JSON.stringify(body) });
  const reply = (await res.json()) as { code: number; msg: string; data: T };
  if (reply.code !== 0) throw new Error(`${call.id}: ${reply.msg}`);
  return reply.data;
}

/** A logged-in API client, for arranging what a journey starts from. */
export async function apiLogin(server: RunningServer, username: string, password: string): Promise<ApiTestClient> {
  const reply = await new ApiTestClient(server.url).call(API.account.login, { username, password });
  if (reply.code !== 0) throw new Error(`login: ${reply.msg}`);
  return new ApiTestClient(server.url, reply.data.token);
}

/** A call that must succeed; answers its data. */
export async function okCall<T = any>(client: ApiTestClient, call: CallDef, params: Record<string, unknown>): Promise<T> {
  const reply = await client.call(call, params);
  if (reply.code !== 0) throw new Error(`${call.id}: ${reply.msg}`);
  return reply.data as T;
}

/** Fills the login form a page shows (ticking the agreement unless told not to) and submits it. */
export { submitLogin };

/**
 * Session tokens of pages already logged in, by app address and user. Logging in through the form once per user and
 * file is enough to test it; every later page starts with the token in its storage, which spares a login screen,
 * a password hash and a second route load per page (a third of a page's browser time).
 */
const sessions = new Map<string, string>();

/** A token still valid on the server: a page seeded with a revoked one (a test logged it out) would bounce to login mid-test. */
async function liveToken(server: RunningServer, key: string): Promise<string | undefined> {
  const token = sessions.get(key);
  // Asked on loopback: a helper host's name resolves only inside the browser.
  const apiUrl = Object.assign(new URL(server.url), { hostname: '127.0.0.1' }).origin;
  if (token && (await new ApiTestClient(apiUrl, token).call(API.account.profile, {})).code === 0) return token;
  sessions.delete(key);
  return undefined;
}

/** A new page that opens `route` logged in as `username` (through the form the first time) and waits for the route's panel. */
export async function loggedInPage(browser: Browser, server: RunningServer, username: string, password: string, route: string, options: PageOptions = {}): Promise<OpenPage> {
  const key = `${server.url} ${username}`;
  const token = await liveToken(server, key);
  const { page, context } = await newPage(browser, token ? { ...options, session: { origin: server.url, token } } : options);
  await page.goto(`${server.url}/#${route}`);
  if (!token) {
    await submitLogin(page, username, password);
    await page.waitForFunction(() => localStorage.getItem('aisa.token') !== null);
    sessions.set(key, JSON.parse((await page.evaluate(() => localStorage.getItem('aisa.token')))!) as string);
  }
  await page.waitForSelector(`.dock-panel[data-route="${route.split('?')[0]}"]`);
  return { page, context };
}

/** Waits for a toast with exactly this text among those shown. */
export const toast = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.bp6-toast')].some((el) => (el.textContent ?? '').trim() === t), text, { timeout: 15_000 });

/**
 * On /create: brings the avatar pane to the front and picks the public avatar `name` of that orientation, waiting
 * until it shows as picked (every journey that renders a work does this first).
 */
export async function pickCreateAvatar(page: Page, name: string, orientation: '横屏' | '竖屏' = '横屏'): Promise<void> {
  await page.click('[data-testid=create-tab-avatar]');
  await page.click('[data-testid=create-avatar-source] >> text=公共');
  await page.click(`[data-testid=create-avatar-orientation] >> text=${orientation}`);
  await page.click(`[data-testid=create-avatars] .cr-avatar >> text=${name}`);
  await page.waitForSelector(`[data-testid=create-avatars] .cr-avatar.picked >> text=${name}`);
}

/** On /create: brings the preview pane to the front and presses 生成视频; the channel dialog opens. */
export async function openChannelDialog(page: Page): Promise<void> {
  await page.click('[data-testid=create-tab-preview]');
  await page.click('[data-testid=create-submit]');
  await page.waitForSelector('.cr-channel-dialog');
}

/** On /create, the voice pane in front (see runCommand for the other way there): picks voice `name` of `source` and waits for its parameters. */
export async function pickCreateVoice(page: Page, name: string, source: '公共声音' | '我的声音' = '公共声音'): Promise<void> {
  await page.click(`[data-testid=create-voice-source] >> text=${source}`);
  await page.click(`[data-testid=create-voices] >> text=${name}`);
  await page.waitForSelector('[data-testid=create-voice-params]');
}

/**
 * A RenameDialog open, its input `<prefix>rename-input` and its button `<prefix>rename-save`: with `blank`, that name
 * is refused first (MSG.renameNameRequired); then `name` is saved (MSG.renameSucceeded).
 */
export async function renameInDialog(page: Page, prefix: string, name: string, options: { blank?: string } = {}): Promise<void> {
  const input = `[data-testid=${prefix}rename-input]`;
  const save = `[data-testid=${prefix}rename-save]`;
  if (options.blank !== undefined) {
    await page.fill(input, options.blank);
    await page.click(save);
    await toast(page, MSG.renameNameRequired);
  }
  await page.fill(input, name);
  await page.click(save);
  await toast(page, MSG.renameSucceeded);
}

/** What a clone dialog (avatar or voice) says before it takes a name and a file, and a file of the wrong format for it. */
export interface CloneRefusals {
  /** The dialog's test ids start with it: `<prefix>start`, `<prefix>name`, `<prefix>upload`. */
  prefix: string;
  name: string;
  nameRequired: string;
  fileRequired: string;
  wrongFile: { name: string; mimeType: string; buffer: Buffer };
  wrongFileRefused: string;
}

/**
 * The voice clone notice, once its usage rules have loaded into it, as a reader waits for them: they push the
 * dialog's footer down, so a click aimed before that can land on the rules instead of the button.
 */
export const cloneNoticeRead = (page: Page) => page.waitForSelector('.vc-notice-dialog [data-testid=clone-usage]:not(:has(.bp6-spinner))');

/**
 * In an open clone dialog: starting without a name and then without a file is refused with each message, and a
 * file of the wrong format is refused before it uploads; the name stays filled in.
 */
export async function cloneDialogRefusals(page: Page, r: CloneRefusals): Promise<void> {
  const start = `[data-testid=${r.prefix}start]`;
  await page.click(start);
  await toast(page, r.nameRequired);
  await page.fill(`[data-testid=${r.prefix}name]`, r.name);
  await pastQuickThrottle(page);
  await page.click(start);
  await toast(page, r.fileRequired);
  await page.setInputFiles(`[data-testid=${r.prefix}upload] [data-testid=upload-input]`, r.wrongFile);
  await toast(page, r.wrongFileRefused);
}

/** A screen whose engine is not configured: its notice (test id `notice`) says `message` and its `action` button is disabled. */
export async function saysEngineMissing(page: Page, notice: string, message: string, action: string): Promise<void> {
  await page.waitForSelector(`[data-testid=${notice}]`);
  expect(await page.textContent(`[data-testid=${notice}]`)).toContain(message);
  expect(await page.isDisabled(`[data-testid=${action}]`)).toBe(true);
}

/** Opens the command palette (Ctrl+K) and types `query` into its search. */
export async function searchPalette(page: Page, query: string): Promise<void> {
  // A palette still closing after the last command would take Ctrl+K as "close" and the typing after it.
  await page.waitForSelector('.palette-search', { state: 'detached' });
  await page.keyboard.press('Control+k');
  await page.waitForSelector('.palette-search');
  await page.keyboard.type(query);
}

/** Inserts a pause of `seconds` at the script editor's cursor from the pause menu. */
export async function insertPause(page: Page, seconds: number): Promise<void> {
  await page.click('[data-testid=pause-open]');
  await page.click(`[data-testid="pause-${seconds}"]`);
  await page.waitForSelector('[data-testid=pause-menu]', { state: 'detached' });
}

/** Clicks into the script editor and types `parts`: text as keystrokes, a number as a pause from the menu. */
export async function typeScript(page: Page, ...parts: Array<string | number>): Promise<void> {
  await page.click('.se-surface .view-lines');
  for (const part of parts) {
    if (typeof part === 'number') await insertPause(page, part);
    else await page.keyboard.type(part);
  }
}

/** Runs a palette command: searches for `query`, then picks the item with that text or, given one, that command id. */
export async function runCommand(page: Page, query: string, commandId?: string): Promise<void> {
  await searchPalette(page, query);
  const item = commandId ? `.palette-item[data-command="${commandId}"]` : `.palette-item >> text=${query}`;
  try {
    await page.click(item, { timeout: 15_000 });
  } catch (err) {
    // Say what the palette offered instead.
    const offered = await page.evaluate(() => ({
      search: (document.querySelector('.palette-search') as HTMLInputElement | null)?.value ?? '(no palette)',
      items: [...document.querySelectorAll('.palette-item')].map((e) => e.getAttribute('data-command')),
    }));
    throw new Error(`${(err as Error).message}\npalette: ${JSON.stringify(offered)}`);
  }
}

/** Waits until the toasts shown so far have gone (so the next one is a new one). */
/**
 * Downloads a finished work from its card through the progress dialog: the browser saves it under the work's name,
 * the saved file (at `saveTo`) is a real mp4, and 下载成功 is shown.
 */
export async function downloadWork(page: Page, card: string, name: string, saveTo: string): Promise<void> {
  const download = page.waitForEvent('download');
  await page.click(`${card} [data-testid=work-download]`);
  const file = await download;
  if (file.suggestedFilename() !== `${name}.mp4`) throw new Error(`downloaded as ${file.suggestedFilename()}, not ${name}.mp4`);
  await file.saveAs(saveTo);
  if (fs.readFileSync(saveTo).subarray(4, 8).toString('latin1') !== 'ftyp') throw new Error('the download is not an mp4');
  await toast(page, MSG.downloadSucceeded);
}

export const toastsGone = (page: Page) => page.waitForFunction(() => document.querySelectorAll('.bp6-toast').length === 0, undefined, { timeout: 15_000 });

/** The route and query the hash router shows. */
export const hashPath = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));

/** The <audio> under `selector` really plays a stored file: a known duration, not paused, time moving. */
export async function audioPlays(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) => {
      const a = document.querySelector<HTMLAudioElement>(sel);
      return !!a && a.currentSrc.includes('/storage/') && a.duration > 0 && !a.paused && a.currentTime > 0;
    },
    selector,
    { timeout: 20_000 },
  );
}

/** The works list's card of work `id`. */
export const workCard = (id: number) => `[data-testid=work-card][data-id="${id}"]`;

/**
 * On /works: waits until the card is playable (refreshing the list), plays it in the player, downloads its mp4 to
 * `saveAs` and answers its length; the file has video and sound.
 */
export async function downloadPlayable(page: Page, card: string, saveAs: string, timeoutMs = 120_000): Promise<number> {
  await page.waitForSelector(card);
  const end = Date.now() + timeoutMs;
  const ready = page.locator(`${card}[data-status="3"]`);
  while ((await ready.count()) === 0) {
    if (Date.now() > end) throw new Error(`work not ready: ${await page.getAttribute(card, 'data-status')}`);
    // The list polls every 15 s; asking again each second shows the finished work as soon as it is.
    await page.click('[data-testid=works-refresh]');
    await ready.waitFor({ timeout: 1000 }).catch(() => undefined);
  }
  await page.click(`${card} [data-testid=work-cover]`);
  await page.waitForSelector('[data-testid=work-video]');
  await page.waitForFunction(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid=work-video]');
    return v !== null && v.duration > 0;
  });
  await page.keyboard.press('Escape');
  await page.waitForSelector('.wk-player-dialog', { state: 'detached' });
  const download = page.waitForEvent('download');
  await page.click(`${card} [data-testid=work-download]`);
  await (await download).saveAs(saveAs);
  const probed = await probe(saveAs, 'mp4');
  if (!probed.video || !probed.audio) throw new Error(`the downloaded work lacks ${probed.video ? 'sound' : 'video'}`);
  return probed.duration;
}
