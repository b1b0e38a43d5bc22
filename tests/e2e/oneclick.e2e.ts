/**
 * One-click creation (/cozeVideo, issue 29) against the real server, offline (no chat or image engine): the nav entry is
 * built (no 即将上线); a pasted 4-sentence script becomes the proposed storyboard (avatar, B-roll, avatar, avatar), the
 * B-roll scene gets a picture from the material library, subtitles stay on and a library track is the music; the
 * draft survives a reload; the estimate is the contract's price; 生成视频 renders it as a work on /works (tab 一键成片),
 * played there and checked with ffprobe (one H.264 and one AAC stream, 720×1280, the picture's length the speech's;
 * a B-roll frame like its picture, an avatar frame not); the cover chosen (the B-roll scene's first frame) is the
 * work's cover on /works and in the history, which lists it done. Then with loopback chat and image
 * peers: a topic becomes a script (its hook first, one chat answer charged), its storyboard's B-roll scenes get
 * generated pictures (a chat answer and a picture each), and it renders as a second work.
 * Dark on a desktop and light on a 390 px phone for the three screens (screenshots into SHOTS_DIR when set).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG, WorkStatus, parseSrt, proposeStoryboard, splitSentences, storyboardPrice } from '../../src/contract';
import { FFPROBE, probe } from '../../server/infra/media-probe';
import { FFMPEG, ffmpegCached, makeSpeech } from '../support/media';
import { LOOKS, PHONE_VIEWPORT, QUICK_THROTTLES, horizontalOverflow, pastQuickThrottle, screenshots } from '../support/browser';
import { downloadPlayable, publicAvatars, useJourney, workCard, type PageOptions } from '../support/journey';
import { startImagePeer, type ImagePeer } from '../support/peers/image-peer';
import { startOpenAiPeer, type OpenAiPeer } from '../support/peers/openai-peer';
import { ssimAt } from '../support/picture-media';
import { uploadFile } from '../support/upload';
import { until } from '../support/wait';
import { testFrames } from '../support/render-size';

const USERNAME = '13800009901';
const shoot = screenshots('oneclick');
const AVATAR_NAME = '一键主播';
const VOICE_NAME = '一键声音';
const TRACK = '春日轻歌';
const SCRIPT = '大家好，今天聊聊春天的花园。先看这片开满鲜花的草地。花园里的小路通向湖边。最后记得关注，下期再见。';

/** A still, flat-coloured avatar: nothing like the B-roll picture. */
const still = (d: string) =>
  ffmpegCached(path.join(d, 'still.mp4'), [
    '-f', 'lavfi', '-i', 'color=c=0x3c6e8f:s=360x640:r=25', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono',
    '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
  ]);
const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  users: { [USERNAME]: 5000 },
  timings: { ...QUICK_THROTTLES, worksPollMs: 1000, generationPollMs: 500 },
  arrange: publicAvatars({ [AVATAR_NAME]: still }),
});
let dir: string;
let bars: string;
/** The loopback engines of the topic journey: the chat peer answers by what its system prompt asks. */
let chat: OpenAiPeer;
let images: ImagePeer;
const HOOK = '你家的花为什么总养不活？';
const BODY = '其实只差三个小习惯。第一，浇水要见干见湿。第二，每周把花盆转一转。最后，关注我，下期教你配土。';

beforeAll(async () => {
  [chat, images] = await Promise.all([startOpenAiPeer(), startImagePeer()]);
  chat.behave({ kind: 'reply', text: (_user, req) => (req.system.includes('文生图提示词') ? JSON.stringify({ prompt: '阳台上盛开的花，清晨阳光，写实摄影' }) : JSON.stringify({ title: '养花三个小习惯', hook: HOOK, script: BODY })) });
  images.behave('openai', { kind: 'images' });
  dir = mediaDir();
  bars = ffmpegCached(path.join(dir, 'bars.png'), ['-f', 'lavfi', '-i', 'smptehdbars=size=720x1280', '-frames:v', '1']);
  await server.admin('voice', 'publish', await makeSpeech(path.join(dir, 'voice.mp3'), '大家好，我是今天的主持人。'), '--name', VOICE_NAME);
  const track = path.join(dir, 'track.mp3');
  spawnSync(FFMPEG, ['-y', '-f', 'lavfi', '-i', 'sine=frequency=262:sample_rate=44100:duration=8', '-af', 'volume=0.1', '-c:a', 'libmp3lame', track]);
  expect(await server.admin('music', 'publish', track, '--name', TRACK, '--mood', '舒缓')).toContain('published');
  const client = await apiClient(USERNAME);
  expect((await uploadFile(client, 'image', bars)).code).toBe(0);
  await until(() => client.call(API.voices.list, { source: 2, page: 1, limit: 50 }), (r) => r.data.list.some((v: { name: string; generate_status: number }) => v.name === VOICE_NAME && v.generate_status === 2), 60_000, 500);
}, 240_000);
afterAll(() => Promise.all([chat?.close(), images?.close()]));

async function openStart(options: PageOptions = {}) {
  const opened = await loggedInPage(USERNAME, '/cozeVideo', options);
  await opened.page.waitForSelector('[data-testid=oneclick-start]');
  await opened.page.waitForSelector(`[data-testid=oneclick-avatar] option >> text=${AVATAR_NAME}`, { state: 'attached' });
  return opened;
}

/** The start screen filled with the script (unless given), avatar and voice; 生成分镜 opens the storyboard. */
async function propose(page: Page, script: string | null = SCRIPT): Promise<void> {
  if (script !== null) {
    await page.fill('[data-testid=oneclick-name]', '春天的花园');
    await page.fill('[data-testid=oneclick-script]', script);
  }
  await page.selectOption('[data-testid=oneclick-avatar]', { label: AVATAR_NAME });
  await page.waitForSelector(`[data-testid=oneclick-voice] option >> text=${VOICE_NAME}`, { state: 'attached' });
  await page.selectOption('[data-testid=oneclick-voice]', { label: VOICE_NAME });
  await page.click('[data-testid=oneclick-propose]');
  await page.waitForSelector('[data-testid=oneclick-edit] [data-testid=oneclick-scene]');
}

const kinds = (page: Page) => page.locator('[data-testid=oneclick-scene]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));

describe('one-click creation', () => {
  it('pastes a script, accepts the storyboard with a material picture and music, renders one video and plays it on /works', { timeout: 300_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/home');
    const entry = '.workbench-nav .nav-item[data-nav-id="cozeVideo"]';
    await page.waitForSelector(entry);
    expect(await page.locator(`${entry} .soon-badge`).count()).toBe(0);
    await page.click(entry);
    await page.waitForSelector(`[data-testid=oneclick-avatar] option >> text=${AVATAR_NAME}`, { state: 'attached' });
    // No chat engine: the topic path says so, the script path works.
    await page.waitForSelector(`[data-testid=oneclick-topic-note] >> text=${MSG.oneclickChatMissing}`);
    await propose(page);
    await page.waitForSelector(`[data-testid=oneclick-paint-note] >> text=${MSG.oneclickImageMissing}`);

    const proposed = proposeStoryboard(SCRIPT);
    expect(proposed.map((s) => s.kind)).toEqual(['avatar', 'broll', 'avatar', 'avatar']);
    expect(await kinds(page)).toEqual(proposed.map((s) => s.kind));
    const broll = page.locator('[data-testid=oneclick-scene]').nth(1);
    // The uploaded picture, the only image of the material library.
    await broll.locator('[data-testid=oneclick-scene-picture] option').nth(1).waitFor({ state: 'attached' });
    await broll.locator('[data-testid=oneclick-scene-picture]').selectOption({ index: 1 });
    await page.waitForSelector(`[data-testid=oneclick-bgm] option >> text=${TRACK}`, { state: 'attached' });
    await page.selectOption('[data-testid=oneclick-bgm]', { label: TRACK });
    expect(await page.isChecked('[data-testid=oneclick-subtitles]')).toBe(true);
    // The cover: the B-roll scene's first frame.
    await page.selectOption('[data-testid=oneclick-cover]', '2');
    await page.waitForSelector('[data-testid=oneclick-save-state][data-state=saved]');

    // The draft survives a reload, picture and music included.
    await page.waitForFunction(() => location.hash.includes('id='));
    await page.reload();
    await page.waitForSelector('[data-testid=oneclick-scene][data-kind=broll] .oc-thumb-frame img[src]');
    expect(await page.inputValue('[data-testid=oneclick-bgm]')).toMatch(/^lib-\d+$/);

    // The estimate before submit: the contract's price of these scenes on the default channel.
    const client = await apiClient(USERNAME);
    const channel = (await client.call(API.works.videoChannel)).data.list.find((c: { api: string }) => c.api === 'lip');
    const estimate = storyboardPrice(proposed.map((s, i) => (i === 1 ? { ...s, image_url: 'x' } : s)), channel.credits).credits;
    await page.waitForSelector(`[data-testid=oneclick-estimate][data-credits="${estimate}"]`);
    await shoot(page, 'storyboard-before-submit');

    await pastQuickThrottle(page);
    await page.click('[data-testid=oneclick-submit]');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    const works = (await client.call(API.works.list, { page: 1, limit: 5, type: 5 })).data.list as { id: number }[];
    expect(works).toHaveLength(1);
    const mp4 = path.join(dir, 'oneclick.mp4');
    const seconds = await downloadPlayable(page, workCard(works[0]!.id), mp4, 240_000);

    const info = await probe(mp4, 'mp4');
    expect(info.video).toEqual({ codec: 'h264', ...testFrames('9:16') });
    expect(info.audio).toEqual({ codec: 'aac' });
    const streams = spawnSync(FFPROBE, ['-v', 'error', '-show_entries', 'stream=codec_type,duration', '-of', 'csv=p=0', mp4]).stdout.toString().trim().split(/\s+/).map((l) => l.split(','));
    expect(streams.map((s) => s[0])).toEqual(['video', 'audio']);
    const [video, audio] = streams.map((s) => Number(s[1]));
    expect(Math.abs(video! - audio!) / audio!).toBeLessThan(0.05);
    expect(Math.abs(seconds - audio!) / audio!).toBeLessThan(0.05);

    // The B-roll scene (the second sentence, from the SRT) shows the picture; the first, the avatar, does not.
    const srt = (await client.call(API.works.list, { page: 1, limit: 5, type: 5 })).data.list[0].srt as string;
    const cues = parseSrt(await (await fetch(`${server.url}${srt}`)).text());
    const onBroll = cues.find((c) => c.lines.join('').includes('草地'))!;
    const onPicture = ssimAt(mp4, (onBroll.start + onBroll.end) / 2, bars);
    const onAvatar = ssimAt(mp4, (cues[0]!.start + cues[0]!.end) / 2, bars);
    // The camera pushes in over the picture, so its frame is close to the picture, not equal.
    expect(onPicture, `B-roll ${onPicture} vs avatar ${onAvatar}`).toBeGreaterThan(0.6);
    expect(onPicture - onAvatar).toBeGreaterThan(0.1);

    // The work's cover on /works and in the history is the chosen frame: the picture, not the avatar.
    const cover = (await client.call(API.works.list, { page: 1, limit: 5, type: 5 })).data.list[0].cover as string;
    expect((await page.locator(`${workCard(works[0]!.id)} .wk-cover-img`).getAttribute('src'))?.split('?')[0]).toBe(cover.split('?')[0]);
    const coverFile = path.join(dir, 'oneclick-cover.jpg');
    fs.writeFileSync(coverFile, Buffer.from(await (await fetch(`${server.url}${cover}`)).arrayBuffer()));
    expect(ssimAt(coverFile, 0, bars)).toBeGreaterThan(0.6);
    await page.evaluate(() => (location.hash = '#/cozeVideo/history'));
    await page.waitForSelector(`[data-testid=oneclick-project][data-status="${WorkStatus.Success}"] >> text=春天的花园`);
    expect((await page.locator('[data-testid=oneclick-project] .oc-project-cover img').first().getAttribute('src'))?.split('?')[0]).toBe(cover.split('?')[0]);
    await context.close();
  });

  it('writes a script from a topic, paints the B-roll scenes with generated pictures and renders it (loopback chat and image engines)', { timeout: 300_000 }, async () => {
    await server.admin('site', 'set', `chat_base_url=${chat.url}`, `chat_api_key=${chat.apiKey}`, 'chat_model=test-v3');
    expect(await server.admin('image', 'set', '--engine', 'openai', '--base-url', images.url, '--api-key', images.apiKey)).toContain('image engine openai');
    const client = await apiClient(USERNAME);
    const credits = async () => (await client.call(API.account.credits, {})).data.credits as number;
    const before = await credits();

    const { page, context } = await openStart();
    await page.fill('[data-testid=oneclick-topic-input]', '阳台养花');
    await page.click('[data-testid=oneclick-topic-write]');
    await page.waitForSelector(`text=${MSG.oneclickTopicTooShort(LIMITS.oneclick.topicMinChars)}`);
    await page.fill('[data-testid=oneclick-topic-input]', '阳台养花的小技巧');
    await page.selectOption('[data-testid=oneclick-topic-platform]', '小红书');
    await page.selectOption('[data-testid=oneclick-topic-style]', '知识');
    await page.selectOption('[data-testid=oneclick-topic-seconds]', '30');
    await page.click('[data-testid=oneclick-topic-write]');
    await page.waitForFunction((hook) => (document.querySelector<HTMLTextAreaElement>('[data-testid=oneclick-script]')?.value ?? '').startsWith(hook), HOOK);
    const script = await page.inputValue('[data-testid=oneclick-script]');
    expect(splitSentences(script)[0]).toBe(HOOK);
    expect(await page.inputValue('[data-testid=oneclick-name]')).toBe('养花三个小习惯');
    for (const asked of ['小红书', '约 30 秒', '知识']) expect(chat.requests.at(-1)!.system).toContain(asked);
    expect(await credits()).toBe(before - LIMITS.chatAnswerCredits);
    await shoot(page, 'start-topic-written');

    await propose(page, null);
    const proposed = proposeStoryboard(script);
    const brolls = proposed.filter((s) => s.kind === 'broll').length;
    expect(brolls).toBeGreaterThan(0);
    expect(await kinds(page)).toEqual(proposed.map((s) => s.kind));
    await page.click('[data-testid=oneclick-paint]');
    // Each B-roll scene gets its picture (saved to my materials, so the picker shows it too).
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=oneclick-scene][data-kind=broll] .oc-thumb-frame img[src]').length === n, brolls, { timeout: 60_000 });
    expect(await credits()).toBe(before - LIMITS.chatAnswerCredits - brolls * (LIMITS.chatAnswerCredits + LIMITS.imageCreditsEach));
    expect(chat.requests.filter((r) => r.system.includes('文生图提示词'))).toHaveLength(brolls);
    // A picture uploaded from inside the first B-roll scene replaces its generated one.
    const firstBroll = page.locator('[data-testid=oneclick-scene][data-kind=broll]').first();
    const generated = await firstBroll.locator('.oc-thumb-frame img').getAttribute('src');
    await firstBroll.locator('[data-testid=oneclick-scene-upload-open]').click();
    await firstBroll.locator('[data-testid=oneclick-scene-upload] input[type=file]').setInputFiles(bars);
    await firstBroll.locator('[data-testid=oneclick-scene-upload-open]').waitFor();
    const uploaded = await firstBroll.locator('.oc-thumb-frame img').getAttribute('src');
    expect(uploaded?.split('?')[0]).not.toBe(generated?.split('?')[0]);
    await page.selectOption('[data-testid=oneclick-subtitle-style]', 'bold');
    await page.fill('[data-testid=oneclick-title-card]', '养花小技巧');
    // Each scene previews: the avatar who speaks it, or the picture moving as its camera will.
    expect(await page.locator('[data-testid=oneclick-scene-preview]').count()).toBe(proposed.length);
    await page.waitForSelector('[data-testid=oneclick-save-state][data-state=saved]');
    const project = Number(new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('id'));
    expect(JSON.parse((await client.call(API.oneclick.draft, { id: project })).data.draft)).toMatchObject({ title_card: '养花小技巧', subtitle_style: 'bold' });
    await shoot(page, 'storyboard-painted');

    await pastQuickThrottle(page);
    await page.click('[data-testid=oneclick-submit]');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    const works = (await client.call(API.works.list, { page: 1, limit: 5, type: 5 })).data.list as { id: number; name: string }[];
    expect(works[0]!.name).toBe('养花三个小习惯');
    const mp4 = path.join(dir, 'topic.mp4');
    const seconds = await downloadPlayable(page, workCard(works[0]!.id), mp4, 240_000);
    const info = await probe(mp4, 'mp4');
    expect(info.video).toEqual({ codec: 'h264', ...testFrames('9:16') });
    expect(Math.abs(info.duration - seconds) / seconds).toBeLessThan(0.05);
    await context.close();
  });

  it('looks right: the three screens dark on a desktop, light on a phone (no overflow there)', { timeout: 120_000 }, async () => {
    for (const { theme, phone } of LOOKS) {
      const look = `${theme}-${phone ? 'phone' : 'desktop'}`;
      const { page, context } = await openStart({ theme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      await page.fill('[data-testid=oneclick-script]', SCRIPT);
      await page.waitForFunction(() => [...document.querySelectorAll('.oc-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (phone) expect(await horizontalOverflow(page, '.oc-page', '.oc-page *')).toEqual([]);
      await shoot(page, `start-${look}`);
      await page.evaluate(() => (location.hash = '#/cozeVideo/history'));
      await page.waitForSelector('[data-testid=oneclick-project]');
      if (phone) expect(await horizontalOverflow(page, '.oc-page', '.oc-page *')).toEqual([]);
      await shoot(page, `history-${look}`);
      await page.click('[data-testid=oneclick-project-open]');
      await page.waitForSelector('[data-testid=oneclick-scene][data-kind=broll] .oc-thumb-frame img[src]');
      await page.waitForFunction(() => [...document.querySelectorAll('.oc-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (phone) expect(await horizontalOverflow(page, '.oc-page', '.oc-page *')).toEqual([]);
      await shoot(page, `storyboard-${look}`);
      await context.close();
    }
  });
});
