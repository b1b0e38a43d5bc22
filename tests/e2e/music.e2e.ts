/**
 * AI music (/store/music/index) against the real server and the loopback MiniMax music peer: the store's card opens
 * it (not 即将上线); without an engine the form says 音乐生成引擎尚未配置，请联系管理员 and the library (a track the
 * operator published with `npm run admin -- music publish`) still plays. Turned on with `npm run admin -- music set`:
 * an instrumental described with chips, its price confirmed, made, played on its waveform, renamed, marked
 * 用作背景音乐 (then listed in the library as 我的), saved to the material library; a song whose lyrics the AI wrote; a
 * refused task shown with its reason and refunded, then deleted. The marked track and the library's go under a /create
 * work as 背景音乐 (ffprobe and loudness of the work: heard in a pause of the speech, lower under the words) and show in
 * the dubbing studio's and /multiples' music pickers.
 * Dark on a desktop and light on a 390 px phone (screenshots into SHOTS_DIR when set).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG, type MusicTask } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import { FFMPEG, levelDb, makeSpeech, makeVideo } from '../support/media';
import { LOOKS, PHONE_VIEWPORT, QUICK_THROTTLES, horizontalOverflow, pastQuickThrottle, screenshots } from '../support/browser';
import { openChannelDialog, audioPlays, pickCreateAvatar, publicAvatar, renameInDialog, publicAvatars, downloadPlayable, toast, useJourney, workCard, type PageOptions } from '../support/journey';
import { startMusicPeer, type MusicPeer } from '../support/peers/music-peer';

const USERNAME = '13800009801';
const shoot = screenshots('music');
const ROUTE = '/store/music/index';
const LIBRARY_TRACK = '晨曦序曲';
const AVATAR_NAME = '公共主播·配乐';
const PAUSE = 3;

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  arrange: publicAvatars({ [AVATAR_NAME]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 640, height: 360, seconds: 6 }) }),
  users: { [USERNAME]: 1000 },
  timings: { ...QUICK_THROTTLES, generationPollMs: 400 },
});
let peer: MusicPeer;
let dir: string;
/** Speech, PAUSE seconds of silence, speech again (the /create work's audio), and where its pause lies. */
let speech: { file: string; pauseFrom: number; pauseTo: number };

beforeAll(async () => {
  peer = await startMusicPeer();
  dir = mediaDir();
  const said = await makeSpeech(path.join(dir, 'said.mp3'), '大家好，欢迎收看今天的节目，我们马上开始。');
  const seconds = (await probe(said, 'mp3')).duration;
  const file = path.join(dir, 'with-pause.mp3');
  spawnSync(FFMPEG, ['-y', '-i', said, '-f', 'lavfi', '-t', String(PAUSE), '-i', 'anullsrc=r=22050:cl=mono', '-i', said, '-filter_complex',
    '[0:a]aresample=22050,aformat=channel_layouts=mono[a];[1:a]aformat=channel_layouts=mono[b];[2:a]aresample=22050,aformat=channel_layouts=mono[c];[a][b][c]concat=n=3:v=0:a=1[out]',
    '-map', '[out]', '-c:a', 'libmp3lame', file]);
  speech = { file, pauseFrom: seconds, pauseTo: seconds + PAUSE };
  const client = await apiClient(USERNAME);
  await publicAvatar(client, AVATAR_NAME);
  const track = path.join(dir, 'library.mp3');
  spawnSync(FFMPEG, ['-y', '-f', 'lavfi', '-i', 'sine=frequency=262:sample_rate=44100:duration=8', '-af', 'volume=0.1', '-c:a', 'libmp3lame', track]);
  expect(await server.admin('music', 'publish', track, '--name', LIBRARY_TRACK, '--mood', '舒缓')).toContain('published');
}, 180_000);
afterAll(() => peer?.close());

const credits = async () => (await (await apiClient(USERNAME)).call(API.account.credits, {})).data.credits as number;
const myTasks = async () => (await (await apiClient(USERNAME)).call(API.music.myTask, { page: 1, limit: 50 })).data.list as MusicTask[];

async function openScreen(options: PageOptions = {}) {
  const opened = await loggedInPage(USERNAME, ROUTE, options);
  await opened.page.waitForSelector('[data-testid=music-panel]');
  return opened;
}

/** Asks, checks the price in the confirmation, confirms; answers the new task's row once it ended with `status`. */
async function generate(page: Page, status: '3' | '4'): Promise<string> {
  const before = (await myTasks()).map((t) => t.id);
  expect(await page.textContent('[data-testid=music-generate]')).toContain('50 积分');
  await pastQuickThrottle(page);
  await page.click('[data-testid=music-generate]');
  await page.waitForSelector('.mus-confirm >> text=将消耗 50 积分');
  await page.click('.mus-confirm .bp6-alert-footer .bp6-button >> text=确认生成');
  await toast(page, MSG.submitSucceeded);
  const row = page.locator('[data-testid=music-task]').first();
  await page.waitForFunction((ids) => {
    const id = Number(document.querySelector('[data-testid=music-task]')?.getAttribute('data-id'));
    return id > 0 && !ids.includes(id);
  }, before);
  const id = await row.getAttribute('data-id');
  const selector = `[data-testid=music-task][data-id="${id}"]`;
  await page.waitForSelector(`${selector}[data-status="${status}"]`, { timeout: 30_000 });
  return selector;
}

describe('AI music', () => {
  it('opens from the store; without an engine the form says so, and the library still plays', async () => {
    const { page, context } = await loggedInPage(USERNAME, '/store');
    const card = '[data-testid=store-card][data-path="/store/music/index"]';
    await page.waitForSelector(card);
    expect(await page.locator(`${card} [data-testid=soon-badge]`).count()).toBe(0);
    await page.click(card);
    await page.waitForSelector('[data-testid=music-panel]');
    await page.waitForSelector(`[data-testid=music-engine-missing] >> text=${MSG.musicEngineMissing}`);
    expect(await page.isDisabled('[data-testid=music-generate]')).toBe(true);
    const track = `[data-testid=music-library-track]:has-text("${LIBRARY_TRACK}")`;
    await page.waitForSelector(track);
    await page.click(`${track} [data-testid=music-library-play]`);
    await audioPlays(page, '[data-testid=music-audio]');
    await context.close();
  });

  it('makes an instrumental, plays it, renames it, uses it as background music and saves it; a song gets AI lyrics; a refusal is refunded', { timeout: 180_000 }, async () => {
    expect(await server.admin('music', 'set', '--engine', 'minimax', '--api-key', peer.apiKey, '--base-url', peer.url)).toContain('MiniMax');
    const start = await credits();
    const { page, context } = await openScreen();
    await page.waitForSelector('[data-testid=music-generate]:not([disabled])');
    expect(await page.locator('[data-testid=music-engine-missing]').count()).toBe(0);

    // The description from chips and words; 纯音乐 is the default.
    await page.fill('[data-testid=music-prompt]', '清晨的咖啡店');
    await page.click('[data-testid=music-chip] >> text=钢琴');
    await page.click('[data-testid=music-chip] >> text=温暖');
    expect(await page.inputValue('[data-testid=music-prompt]')).toBe('清晨的咖啡店，钢琴，温暖');
    // A title is asked for before the price.
    await pastQuickThrottle(page);
    await page.click('[data-testid=music-generate]');
    await toast(page, MSG.musicTitleRequired);
    await page.fill('[data-testid=music-title]', '咖啡时光');
    const row = await generate(page, '3');
    expect(await credits()).toBe(start - 50);
    expect(peer.music.at(-1)).toMatchObject({ prompt: '清晨的咖啡店，钢琴，温暖', is_instrumental: true });

    // Played on its waveform.
    await page.waitForSelector(`${row} [data-testid=music-wave][data-state=ready]`);
    await page.click(`${row} [data-testid=music-task-play]`);
    await audioPlays(page, '[data-testid=music-audio]');
    expect(await page.getAttribute(`${row} [data-testid=music-task-download]`, 'href')).toMatch(/\/storage\//);

    // Renamed, marked as background music (then in the library as 我的), saved to the material library.
    await page.click(`${row} [data-testid=music-task-rename]`);
    await renameInDialog(page, 'music-', '咖啡时光·钢琴');
    await page.waitForSelector(`${row} [data-testid=music-task-name] >> text=咖啡时光·钢琴`);
    await page.click(`${row} [data-testid=music-task-background]`);
    await toast(page, MSG.musicBackgroundOn);
    await page.waitForSelector(`${row} [data-testid=music-task-bgm]`);
    await page.waitForSelector('[data-testid=music-library-track]:has-text("咖啡时光·钢琴")');
    await page.click(`${row} [data-testid=music-task-save]`);
    await toast(page, MSG.savedToMaterial);
    const materials = (await (await apiClient(USERNAME)).call(API.material.list, { type: 'audio', page: 1, limit: 50 })).data.list as { name: string }[];
    expect(materials.map((m) => m.name)).toContain('咖啡时光·钢琴');

    // A song without lyrics: the AI writes them from the description.
    await page.click('[data-testid=music-kind] >> text=带人声');
    await page.waitForSelector('[data-testid=music-lyrics]');
    await page.fill('[data-testid=music-title]', '清晨之歌');
    const song = await generate(page, '3');
    await page.click(`${song} .mus-lyrics summary`);
    expect(await page.textContent(`${song} [data-testid=music-task-lyrics]`)).toContain('[Chorus]');

    // A task the provider refuses: failed with its reason, refunded, deleted.
    const before = await credits();
    peer.failNextCode = 1026;
    const refused = await generate(page, '4');
    expect(await page.textContent(`${refused} [data-testid=music-task-reason]`)).toBe(MSG.musicFailed(MSG.musicSensitive));
    expect(await credits()).toBe(before);
    await page.click(`${refused} [data-testid=music-task-delete]`);
    await page.click('.mus-alert .bp6-alert-footer .bp6-button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector(refused, { state: 'detached' });
    expect(peer.shapeErrors).toEqual([]);
    await context.close();
  });

  it('lays the generated track under a /create work: heard in a pause of the speech, lower under the words', { timeout: 300_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/create');
    await page.waitForSelector('[data-testid=create-panel]');
    await page.click('[data-testid=create-mode] >> text=音频驱动');
    await page.setInputFiles('[data-testid=create-audio] input[type=file]', speech.file);
    await page.waitForSelector('[data-testid=create-audio-file] >> text=with-pause.mp3');
    await pickCreateAvatar(page, AVATAR_NAME);
    await openChannelDialog(page);
    await page.click('[data-testid=create-channel-local]');
    // The picker offers the library's track and the one marked 用作背景音乐 above.
    await page.waitForSelector(`[data-testid=bgm-track] option >> text=${LIBRARY_TRACK}（舒缓）`, { state: 'attached' });
    await page.selectOption('[data-testid=bgm-track]', { label: '我的 · 咖啡时光·钢琴' });
    await page.waitForSelector('[data-testid=bgm-volume] >> text=30%');
    await page.click('[data-testid=bgm-play]');
    await audioPlays(page, '[data-testid=bgm-audio]');
    await shoot(page.locator('.cr-channel-dialog'), 'create-bgm-dialog');
    await page.click('[data-testid=create-channel-confirm]');
    await page.waitForSelector(`.cr-alert >> text=${MSG.submitAlert}`, { timeout: 90_000 });
    await page.click('.cr-alert >> text=去作品页');
    const works = (await (await apiClient(USERNAME)).call(API.works.list, { page: 1, limit: 5 })).data.list as { id: number }[];
    const mp4 = path.join(dir, 'with-music.mp4');
    const seconds = await downloadPlayable(page, workCard(works[0]!.id), mp4);
    expect(Math.abs(seconds - (await probe(speech.file, 'mp3')).duration)).toBeLessThanOrEqual(0.3);

    // The music's 3 kHz partial: clearly there in the pause (silence there without it), pressed down under the words.
    const inPause = levelDb(mp4, { from: speech.pauseFrom + 0.8, to: speech.pauseTo - 0.6, bandHz: 3000 });
    const underWords = levelDb(mp4, { from: LIMITS.music.bgmFadeInSeconds + 0.1, to: speech.pauseFrom - 0.3, bandHz: 3000 });
    expect(inPause).toBeGreaterThan(-45);
    expect(inPause - underWords).toBeGreaterThan(6);
    await context.close();
  });

  it('offers the library in the dubbing studio\'s and /multiples\' music pickers', async () => {
    const { page, context } = await loggedInPage(USERNAME, '/store/dubbing/index');
    await page.waitForSelector('[data-testid=dubbing-panel]');
    const library = '[data-testid=dub-music] optgroup[label=音乐库]';
    await page.waitForSelector(`${library} option >> text=${LIBRARY_TRACK}（舒缓）`, { state: 'attached' });
    await page.waitForSelector(`${library} option >> text=我的 · 咖啡时光·钢琴`, { state: 'attached' });
    await page.selectOption('[data-testid=dub-music]', { label: `${LIBRARY_TRACK}（舒缓）` });
    await page.waitForSelector('[data-testid=dub-music-volume]');
    await page.click('[data-testid=dub-music-play]');
    await audioPlays(page, '[data-testid=dub-audio]');
    await page.evaluate(() => (location.hash = '#/multiples'));
    await page.waitForSelector(`[data-testid=multi-side] [data-testid=bgm-track] option >> text=${LIBRARY_TRACK}（舒缓）`, { state: 'attached' });
    await page.selectOption('[data-testid=multi-side] [data-testid=bgm-track]', { label: '我的 · 咖啡时光·钢琴' });
    await page.waitForSelector('[data-testid=multi-side] [data-testid=bgm-volume] >> text=30%');
    await context.close();
  });

  it('looks right: dark on a desktop, light on a phone (no overflow there)', { timeout: 120_000 }, async () => {
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await openScreen({ theme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      await page.waitForSelector('[data-testid=music-task][data-status="3"] [data-testid=music-wave][data-state=ready]');
      await page.click('[data-testid=music-kind] >> text=带人声');
      await page.fill('[data-testid=music-prompt]', '夏日海边，轻快的吉他与鼓点');
      await page.click('[data-testid=music-tag] >> text=[Verse]');
      await page.waitForFunction(() => [...document.querySelectorAll('.mus-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (phone) expect(await horizontalOverflow(page, '.mus-page', '.mus-page *')).toEqual([]);
      await page.mouse.move(1, 300);
      await shoot(page, `music-${theme}-${phone ? 'phone' : 'desktop'}`);
      if (phone) {
        await page.evaluate(() => document.querySelector('[data-testid=music-mine]')!.scrollIntoView({ block: 'start' }));
        await shoot(page, `music-${theme}-phone-mine`);
      }
      await context.close();
    }
  });
});
