/**
 * /multiples (part 2 §2.3) against the real server: public avatars and voices published with the operator CLI, a
 * three-scene work (two text scenes with their own voices and sliders, one uploaded audio made by the offline speech
 * engine), a scene's preview that really plays, the estimate and its price, submission → /works → playable, the mp4's
 * length measured by ffprobe against the work's; then an audio-only work; then the checks, the voice picker's
 * 所有场景使用 and the palette; then both themes at desktop and phone width (screenshots into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { API, LIMITS, MSG, estimateSeconds, multiSceneCredits, pauseMarker, type Avatar, type Voice, type Work } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import type { ApiTestClient } from '../support/app';
import { escapeDialog, horizontalOverflow, LOOKS, PHONE_VIEWPORT, QUICK_THROTTLES, pastQuickThrottle, screenshots, settled } from '../support/browser';
import { hashPath, okCall as ok, publicAvatars, runCommand, toast, toastsGone, useJourney, type PageOptions } from '../support/journey';
import { makeSpeech, makeVideo } from '../support/media';
import { until } from '../support/wait';

const USERS = { main: '13800008101', checks: '13800008102', looks: '13800008103', poor: '13800008104' };
const CREDITS = 10_000;
/** Fewer than the poor user's one-scene text costs at 本地口型's 2 credits a second. */
const POOR_CREDITS = 5;
/** The channel that lip-syncs multi-scene works here (fy has no engine): 本地口型, its price per second. */
const LIP = { name: '本地口型', credits: 2 };
const shoot = screenshots('multiples');
const AVATARS = { portrait: '竖屏讲师', landscape: '横屏主播' };
const VOICES = { female: '知性女声', male: '沉稳男声' };

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  // The landscape clip is the one other journeys use (one face analysis per run for both).
  arrange: publicAvatars({
    [AVATARS.portrait]: (dir) => makeVideo(path.join(dir, 'portrait.mp4'), { width: 360, height: 640, seconds: 6 }),
    [AVATARS.landscape]: (dir) => makeVideo(path.join(dir, 'landscape.mp4'), { width: 640, height: 360, seconds: 6 }),
  }),
  users: { [USERS.main]: CREDITS, [USERS.checks]: CREDITS, [USERS.looks]: CREDITS, [USERS.poor]: POOR_CREDITS },
  timings: QUICK_THROTTLES,
});
let dir: string;
/** The audio scene's upload: real speech, longer than 5 s. */
let sceneAudio: string;
let sceneAudioSeconds: number;

beforeAll(async () => {
  dir = mediaDir();
  const female = await makeSpeech(path.join(dir, 'female.mp3'), '大家好，欢迎来到我们的直播间，今天给大家介绍一款新产品，希望大家喜欢。', { pitch: 1.25 });
  const male = await makeSpeech(path.join(dir, 'male.mp3'), '各位朋友好，这里是新闻播报时间，下面请看详细的报道内容，谢谢收看。', { pitch: 0.8 });
  sceneAudio = await makeSpeech(path.join(dir, '场景音频.mp3'), '这是一段上传的音频，作为多场景作品中的音频场景，它的时长超过五秒钟，用来检查合成。');
  sceneAudioSeconds = (await probe(sceneAudio, 'mp3')).duration;
  expect(sceneAudioSeconds).toBeGreaterThan(LIMITS.audio.minSeconds);

  await server.admin('voice', 'publish', female, '--name', VOICES.female);
  await server.admin('voice', 'publish', male, '--name', VOICES.male);
  // Both avatars public (arranged ready) in the landscape/portrait lists; both voices trained.
  const client = await apiClient(USERS.main);
  const avatars = await ok<{ hlist: Avatar[]; slist: Avatar[] }>(client, API.avatars.publicList, { source: 2, page: 1, limit: 100 });
  expect(avatars.hlist.map((a) => a.name)).toEqual([AVATARS.landscape]);
  expect(avatars.slist.map((a) => a.name)).toEqual([AVATARS.portrait]);
  const voices = await until(
    async () => (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 2, page: 1, limit: 100 })).list,
    (l) => l.length === 2 && l.every((v) => v.generate_status !== 1),
    120_000,
    500,
  );
  expect(voices.every((v) => v.generate_status !== 3)).toBe(true);
}, 240_000);

// ---------------------------------------------------------------------------------------------------------------- helpers

async function openMultiples(username: string, options: PageOptions = {}) {
  const { page, context } = await loggedInPage(username, '/multiples', options);
  await page.waitForSelector('.dock-panel[data-route="/multiples"] [data-testid=multiples-panel]');
  await page.waitForSelector('[data-testid=scene] .se-surface .monaco-editor .view-lines', { timeout: 30_000 });
  return { page, context };
}

const scene = (page: Page, index: number) => page.locator('[data-testid=scene]').nth(index);
const sceneCount = (page: Page) => page.locator('[data-testid=scene]').count();

/** A dialog closes with a transition and gives the focus back: wait for it to be gone before typing anywhere. */
const dialogGone = (page: Page) => page.waitForSelector('.mu-dialog', { state: 'detached' });

async function pickAvatar(page: Page, at: Locator, name: string, orientation: 'landscape' | 'portrait' = 'portrait') {
  await at.locator('[data-testid=scene-avatar-change]').click();
  await page.waitForSelector('.mu-avatar-dialog');
  await page.click(`.mu-avatar-dialog [data-testid=avatar-orientation] >> text=${orientation === 'landscape' ? '横屏' : '竖屏'}`);
  await page.click(`.mu-avatar-dialog [data-testid=avatar-option]:has-text("${name}")`);
  await page.click('[data-testid=avatar-picker-confirm]');
  await dialogGone(page);
  await at.locator(`[data-testid=scene-avatar] img`).waitFor();
}

async function pickVoice(page: Page, at: Locator, name: string, allScenes = false) {
  await at.locator('[data-testid=scene-voice-change]').click();
  await page.waitForSelector('.mu-voice-dialog [data-testid=voice-option]');
  await page.click(`.mu-voice-dialog [data-testid=voice-option]:has-text("${name}") .mu-voice-option-main`);
  if (allScenes) await page.click('.mu-apply-all .bp6-control-indicator');
  await page.click('[data-testid=voice-picker-confirm]');
  await dialogGone(page);
  await at.locator(`[data-testid=scene-voice-name] >> text=${name}`).waitFor();
}

async function typeInto(at: Locator, text: string) {
  await at.locator('.se-surface .view-lines').click();
  await at.page().keyboard.type(text);
}

/** Moves a slider with its keys (one press is one 0.1 step). */
async function nudge(at: Locator, key: 'rate' | 'volume' | 'pitch', steps: number) {
  await at.locator(`[data-testid=scene-slider-${key}] .bp6-slider-handle`).focus();
  for (let i = 0; i < Math.abs(steps); i++) await at.page().keyboard.press(steps > 0 ? 'ArrowRight' : 'ArrowLeft');
}

const sliderValue = async (at: Locator, key: string) => (await at.locator(`[data-testid=scene-slider-${key}-value]`).textContent())?.trim();

/** The page's <audio> really plays a stored file: a known duration, time moving. */
async function audioPlays(page: Page) {
  return page.waitForFunction(
    () => {
      const a = document.querySelector<HTMLAudioElement>('[data-testid=multi-audio]');
      return !!a && a.currentSrc.includes('/storage/') && a.duration > 0 && a.currentTime > 0;
    },
    undefined,
    { timeout: 30_000 },
  );
}

/** Every element of the page (Monaco's own layers aside) and its dialogs stays inside the viewport's width. */
const overflowing = (page: Page) => horizontalOverflow(page, '.mu-page, .mu-picker-scroll', '.mu-page *:not(.monaco-editor *), .bp6-dialog *');

async function download(url: string, file: string): Promise<string> {
  const res = await fetch(`${server.url}${url}`);
  expect(res.status).toBe(200);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** The newest multi-scene work once it has ended; it must have succeeded, with `reason` as its note. */
async function finishedWork(client: ApiTestClient, onlyAudio: 0 | 1, reason = ''): Promise<Work> {
  const list = await until(
    async () => (await ok<{ list: Work[] }>(client, API.works.list, { page: 1, limit: 10, is_multi: 1, only_audio: onlyAudio })).list,
    (l) => l[0]?.status === 3 || l[0]?.status === 4,
    120_000,
    1000,
  );
  expect(list[0]?.reason ?? '').toBe(reason);
  expect(list[0]?.status).toBe(3);
  return list[0]!;
}

// ---------------------------------------------------------------------------------------------------------------- journeys

const TEXT1 = '大家好，欢迎来到多场景直播间。';
const TEXT2a = '今天给大家介绍';
const TEXT2b = '一款全新的产品。';

describe('/multiples: a three-scene work', () => {
  it('builds two text scenes and an audio scene, previews one, shows the estimate and price, submits and plays; then audio only', async () => {
    const client = await apiClient(USERS.main);
    const { page, context } = await openMultiples(USERS.main);
    expect(await sceneCount(page)).toBe(1);
    expect(await page.inputValue('[data-testid=multi-name]')).toBe(LIMITS.defaultWorkName);
    // Which engine lip-syncs the avatar scenes, in one sentence.
    expect(await page.textContent('[data-testid=multi-engine-note]')).toBe(MSG.multiSceneLipSync(LIP.name, true));
    expect(await page.textContent('[data-testid=generation-mode]')).toContain('积分模式');
    expect(await page.textContent('[data-testid=model]')).toContain('V3.0');
    await page.fill('[data-testid=multi-name]', '多场景测试作品');

    // Scene 1: the portrait avatar, the female voice a little faster, its text.
    const s1 = scene(page, 0);
    await pickAvatar(page, s1, AVATARS.portrait);
    await pickVoice(page, s1, VOICES.female);
    await nudge(s1, 'rate', 2);
    expect(await sliderValue(s1, 'rate')).toBe('1.2');
    await typeInto(s1, TEXT1);

    // Scene 2: starts like scene 1 (avatar and voice), then the landscape avatar, the male voice pitched down, a pause.
    await page.click('[data-testid=add-text-scene]');
    const s2 = scene(page, 1);
    await s2.locator('.se-surface .monaco-editor').waitFor();
    expect(await s2.locator('[data-testid=scene-voice-name]').textContent()).toBe(VOICES.female);
    expect(await s2.locator('[data-testid=scene-avatar]').getAttribute('data-avatar-id')).toBe(await s1.locator('[data-testid=scene-avatar]').getAttribute('data-avatar-id'));
    await pickAvatar(page, s2, AVATARS.landscape, 'landscape');
    await pickVoice(page, s2, VOICES.male);
    // Changing scene 2's voice left scene 1's alone, and took the voice's own settings.
    expect(await s1.locator('[data-testid=scene-voice-name]').textContent()).toBe(VOICES.female);
    expect(await sliderValue(s2, 'rate')).toBe('1.0');
    await nudge(s2, 'pitch', -2);
    expect(await sliderValue(s2, 'pitch')).toBe('0.8');
    await typeInto(s2, TEXT2a);
    await s2.locator('[data-testid=pause-open]').click();
    await page.click('[data-testid="pause-0.5"]');
    await page.waitForSelector('[data-testid=pause-menu]', { state: 'detached' });
    await page.keyboard.type(TEXT2b);
    await s2.locator('.se-surface .se-pause').waitFor({ state: 'attached' });

    // Scene 3: an uploaded audio, with play and delete.
    await page.click('[data-testid=add-audio-scene]');
    const s3 = scene(page, 2);
    expect(await s3.getAttribute('data-type')).toBe('audio');
    await s3.locator('[data-testid=upload-input]').setInputFiles(sceneAudio);
    await s3.locator('[data-testid=scene-audio-name] >> text=场景音频.mp3').waitFor({ timeout: 30_000 });
    await s3.locator('[data-testid=scene-audio-remove]').click();
    await s3.locator('[data-testid=upload-zone]').waitFor();
    await s3.locator('[data-testid=upload-input]').setInputFiles(sceneAudio);
    await s3.locator('[data-testid=scene-audio]').waitFor({ timeout: 30_000 });
    await s3.locator('[data-testid=scene-audio-play]').click();
    await audioPlays(page);
    expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=multi-audio]')!.currentSrc)).toContain('.mp3');
    await s3.locator('[data-testid=scene-audio-play]').click();

    // Reorder: scene 3 up and back down.
    await s3.locator('[data-testid=scene-up]').click();
    expect(await scene(page, 1).getAttribute('data-type')).toBe('audio');
    await scene(page, 1).locator('[data-testid=scene-down]').click();
    expect(await scene(page, 2).getAttribute('data-type')).toBe('audio');

    // Preview scene 2: a real sound plays; editing scene 2 clears its preview (and only its own).
    await s2.locator('[data-testid=script-audition]').click();
    await s2.locator('[data-testid=scene-preview][data-state=ready]').waitFor({ timeout: 60_000 });
    await audioPlays(page);
    await typeInto(s2, '');
    await page.keyboard.press('End');
    await page.keyboard.type('谢谢');
    await s2.locator('[data-testid=scene-preview]').waitFor({ state: 'detached' });
    // Preview scene 1: its file is sent with the scene.
    await s1.locator('[data-testid=script-audition]').click();
    await s1.locator('[data-testid=scene-preview][data-state=busy]').waitFor();
    await s1.locator('[data-testid=scene-preview][data-state=ready]').waitFor({ timeout: 60_000 });
    await audioPlays(page);
    const previewSeconds = await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=multi-audio]')!.duration);
    expect(previewSeconds).toBeGreaterThan(1);
    // Clicking 试听 again replays the cached file: no second job.
    const auditions: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/user/audition') && auditions.push(r.url()));
    await s1.locator('[data-testid=script-audition]').click();
    await audioPlays(page);
    expect(auditions).toEqual([]);
    expect(await s1.locator('[data-testid=scene-preview][data-state=ready]').count()).toBe(1);

    // The estimate: characters / (4.2 × the scene's speed) + pauses for the texts, the upload's length; 本地口型's credits a second.
    const text2 = `${TEXT2a}${pauseMarker(0.5)}${TEXT2b}谢谢`;
    const expected = estimateSeconds(TEXT1, 1.2) + estimateSeconds(text2, 1) + sceneAudioSeconds;
    const shown = Number(await page.getAttribute('[data-testid=estimate-seconds]', 'data-seconds'));
    expect(Math.abs(shown - expected)).toBeLessThan(0.15);
    expect(await page.textContent('[data-testid=estimate-seconds]')).toBe(`约 ${Math.round(shown * 10) / 10} 秒`);
    const credits = Number(await page.getAttribute('[data-testid=estimate-credits]', 'data-credits'));
    expect(credits).toBe(multiSceneCredits(shown, LIP.credits));
    expect(Math.abs(credits - expected * LIP.credits)).toBeLessThanOrEqual(1);
    expect((await page.textContent('[data-testid=estimate-credits]'))?.replace(/\s/g, '')).toBe(`${credits}积分`);
    expect(await page.textContent('[data-testid=price-per-second]')).toBe(`${LIP.credits} 积分/秒（${LIP.name}）`);
    expect(await page.textContent('[data-testid=estimate-note]')).toContain('积分按实际合成时长扣除');
    expect(await page.textContent('[data-testid=summary-scenes]')).toContain('3 个');

    // Submit: 提交成功, the points refresh, the multi-scene video list of /works; the work renders and plays.
    expect((await page.textContent('[data-testid=points-button]'))?.trim()).toBe('10,000');
    await page.click('[data-testid=multi-submit]');
    await toast(page, MSG.submitSucceeded);
    await page.waitForFunction(() => location.hash === '#/works?type1=1&type2=1');
    await page.waitForSelector('[data-testid=works-tab-multiVideo][aria-selected=true]');
    const profile = await ok<{ credits: number }>(client, API.account.profile, {});
    expect(profile.credits).toBeLessThan(CREDITS);
    await page.waitForFunction(() => (document.querySelector('[data-testid=points-button]')?.textContent ?? '').trim() !== '10,000');
    const card = page.locator('[data-testid=work-card]', { hasText: '多场景测试作品' });
    await card.waitFor();
    // These avatars (test patterns) show no face: the scenes keep the filmed mouth, and the work says so.
    const work = await finishedWork(client, 0, MSG.lipSyncNoFace);
    await page.waitForSelector(`[data-testid=work-card][data-id="${work.id}"][data-status="3"]`, { timeout: 60_000 });
    await card.locator('[data-testid=work-cover]').click();
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid=work-video]');
      return !!v && v.duration > 0;
    }, undefined, { timeout: 20_000 });
    await escapeDialog(page);

    // The mp4 is as long as the work says, longer than its uploaded scene, with picture and sound.
    const mp4 = await download(work.url, path.join(dir, 'multi.mp4'));
    const media = await probe(mp4, 'mp4');
    expect(media.video).toBeDefined();
    expect(media.audio).toBeDefined();
    expect(Math.abs(media.duration - work.duration!)).toBeLessThan(0.15);
    expect(media.duration).toBeGreaterThan(sceneAudioSeconds + previewSeconds);

    // Audio only, from the same draft (kept while the page was closed): the multi-scene audio list.
    await page.click('.nav-item[data-nav-id="multiples"]');
    await page.waitForSelector('[data-testid=multiples-panel]');
    expect(await sceneCount(page)).toBe(3);
    expect(await page.inputValue('[data-testid=multi-name]')).toBe('多场景测试作品');
    await page.fill('[data-testid=multi-name]', '多场景音频作品');
    await page.click('[data-testid=output-mode] >> text=仅音频');
    await page.waitForSelector('.mu-avatar-unused >> nth=0');
    await toastsGone(page);
    await pastQuickThrottle(page);
    await page.click('[data-testid=multi-submit]');
    await toast(page, MSG.submitSucceeded);
    await page.waitForFunction(() => location.hash === '#/works?type1=1&type2=2');
    await page.waitForSelector('[data-testid=works-tab-multiAudio][aria-selected=true]');
    const audioWork = await finishedWork(client, 1);
    expect(audioWork.name).toBe('多场景音频作品');
    await page.waitForSelector(`[data-testid=work-card][data-id="${audioWork.id}"][data-status="3"]`, { timeout: 60_000 });
    await page.click(`[data-testid=work-card][data-id="${audioWork.id}"] [data-testid=work-cover]`);
    await page.waitForFunction(() => (document.querySelector<HTMLAudioElement>('[data-testid=work-audio]')?.duration ?? 0) > 0, undefined, { timeout: 20_000 });
    const mp3 = await probe(await download(audioWork.url, path.join(dir, 'multi.mp3')), 'mp3');
    expect(mp3.video).toBeUndefined();
    expect(Math.abs(mp3.duration - audioWork.duration!)).toBeLessThan(0.15);
    expect(Math.abs(mp3.duration - media.duration)).toBeLessThan(0.6);
    await context.close();
  }, 360_000);
});

describe('/multiples: checks, the voice picker and the palette', () => {
  it('says 请填写文本内容 and 请上传音频 on the scene at fault, applies a voice to every scene, and works from the palette', async () => {
    const { page, context } = await openMultiples(USERS.checks);
    const submits: string[] = [];
    page.on('request', (r) => r.url().includes('/api/user/multiWorks') && submits.push(r.url()));

    // An empty text scene.
    await page.click('[data-testid=multi-submit]');
    await toast(page, MSG.sceneTextRequired);
    await page.waitForSelector('[data-testid=scene].flagged');
    const s1 = scene(page, 0);
    await pickAvatar(page, s1, AVATARS.portrait);
    await typeInto(s1, '第一段台词');
    expect(await page.locator('[data-testid=scene].flagged').count()).toBe(0);

    // A preview needs a voice; the voice picker's 所有场景使用 sets it on every scene.
    await s1.locator('[data-testid=script-audition]').click();
    await toast(page, MSG.auditionNeedsTextAndVoice);
    await page.click('[data-testid=add-text-scene]');
    const s2 = scene(page, 1);
    await s2.locator('.se-surface .monaco-editor').waitFor();
    await s2.locator('[data-testid=scene-voice-change]').click();
    await page.waitForSelector('.mu-voice-dialog [data-testid=voice-option]');
    await page.click('.mu-apply-all .bp6-control-indicator');
    await page.click('[data-testid=voice-picker-confirm]');
    await toast(page, MSG.applyVoiceNeedsVoice);
    await page.click('[data-testid=voice-picker-cancel]');
    await dialogGone(page);
    await pickVoice(page, s2, VOICES.male, true);
    expect(await s1.locator('[data-testid=scene-voice-name]').textContent()).toBe(VOICES.male);
    await typeInto(s2, '第二段台词');

    // From the palette: an audio scene, then submit: 请上传音频 on it.
    await toastsGone(page);
    await page.click('.mu-title');
    await runCommand(page, '添加音频场景', 'creation.multiples.addAudio');
    await page.waitForSelector('.palette-search', { state: 'detached' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=scene]').length === 3);
    expect(await scene(page, 2).getAttribute('data-type')).toBe('audio');
    await runCommand(page, '多场景：提交', 'creation.multiples.submit');
    await toast(page, MSG.sceneAudioRequired);
    expect(await scene(page, 2).getAttribute('class')).toContain('flagged');
    // Removing the scene at fault: the two text scenes may go (the text scene from the palette too).
    await scene(page, 2).locator('[data-testid=scene-remove]').click();
    expect(await sceneCount(page)).toBe(2);
    await runCommand(page, '添加文本场景', 'creation.multiples.addText');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=scene]').length === 3);
    expect(await scene(page, 2).getAttribute('data-type')).toBe('text');
    await toastsGone(page);
    await page.click('[data-testid=multi-submit]');
    await toast(page, MSG.sceneTextRequired);
    expect(await scene(page, 2).getAttribute('class')).toContain('flagged');
    // Nothing reached the server.
    expect(submits).toEqual([]);
    // The last scene cannot be removed.
    await scene(page, 2).locator('[data-testid=scene-remove]').click();
    await scene(page, 1).locator('[data-testid=scene-remove]').click();
    expect(await sceneCount(page)).toBe(1);
    expect(await scene(page, 0).locator('[data-testid=scene-remove]').isDisabled()).toBe(true);
    await context.close();
  }, 180_000);

  it("shows the server's message when it refuses (not enough credits) and stays on the page; with no lip-sync channel, no submit", async () => {
    const { page, context } = await openMultiples(USERS.poor);
    const s1 = scene(page, 0);
    await pickAvatar(page, s1, AVATARS.portrait);
    await pickVoice(page, s1, VOICES.female);
    await typeInto(s1, '这段台词需要的积分比账户里的多一些。');
    expect(Number(await page.getAttribute('[data-testid=estimate-credits]', 'data-credits'))).toBeGreaterThan(POOR_CREDITS);
    await page.click('[data-testid=multi-submit]');
    await toast(page, MSG.insufficientCredits);
    expect(hashPath(page)).toBe('/multiples');
    expect(await page.locator('[data-testid=multi-submit] .bp6-spinner').count()).toBe(0);
    await context.close();

    // With no lip-sync channel open, the page says so and offers no submit (the server would refuse it).
    await server.admin('channel', 'set', 'lip', '--kind', 'video', '--enabled', 'false');
    try {
      const closed = await openMultiples(USERS.poor);
      await closed.page.waitForSelector(`[data-testid=multi-engine-note] >> text=${MSG.multiSceneNoChannel}`);
      expect(await closed.page.isDisabled('[data-testid=multi-submit]')).toBe(true);
      expect(await closed.page.getAttribute('[data-testid=multi-submit]', 'title')).toBe(MSG.multiSceneNoChannel);
      await closed.context.close();
    } finally {
      await server.admin('channel', 'set', 'lip', '--kind', 'video', '--enabled', 'true');
    }
  }, 120_000);
});

describe('/multiples: both themes, desktop and phone', () => {
  it('fits a 390 px phone with the settings below the scenes, and looks right in both themes', async () => {
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await openMultiples(USERS.looks, { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      const s1 = scene(page, 0);
      await pickAvatar(page, s1, AVATARS.portrait);
      await pickVoice(page, s1, VOICES.female);
      await typeInto(s1, '大家好，欢迎来到直播间，今天给大家介绍一款新品。');
      await page.click('[data-testid=add-audio-scene]');
      await scene(page, 1).locator('[data-testid=upload-input]').setInputFiles(sceneAudio);
      await scene(page, 1).locator('[data-testid=scene-audio]').waitFor({ timeout: 30_000 });
      await page.click('[data-testid=add-text-scene]');
      await scene(page, 2).locator('.se-surface .monaco-editor').waitFor();
      await toastsGone(page);
      await page.evaluate(() => document.querySelector('.dock-panel[data-route="/multiples"]')?.scrollTo(0, 0));
      await settled(page, '[data-testid=multi-side], [data-testid=scene-list]');

      // The settings sit beside the scenes on a desktop, below them on a phone.
      const side = (await page.locator('[data-testid=multi-side]').boundingBox())!;
      const list = (await page.locator('[data-testid=scene-list]').boundingBox())!;
      if (phone) expect(side.y).toBeGreaterThan(list.y + list.height);
      else expect(side.x).toBeGreaterThan(list.x + list.width);
      // On a phone the estimate and submit stay on screen in a bottom bar (the side panel's button gives way).
      expect(await page.locator('[data-testid=multi-bar]').isVisible()).toBe(phone);
      expect(await page.locator('[data-testid=multi-submit]').isVisible()).toBe(!phone);
      if (phone) {
        const bar = (await page.locator('[data-testid=multi-bar]').boundingBox())!;
        expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE_VIEWPORT.height + 1);
        expect(bar.y + bar.height).toBeGreaterThan(PHONE_VIEWPORT.height - 8);
        expect(await page.textContent('[data-testid=multi-bar]')).toContain(`${await page.getAttribute('[data-testid=estimate-credits]', 'data-credits')} 积分`);
      }
      expect(await overflowing(page)).toEqual([]);
      const kind = phone ? 'phone' : 'desktop';
      await shoot(page, `multiples-${theme}-${kind}`);
      await page.locator('[data-testid=multi-side]').scrollIntoViewIfNeeded();
      await shoot(page, `multiples-${theme}-${kind}-side`);

      // The pickers fit too.
      for (const picker of ['avatar', 'voice']) {
        await s1.locator(`[data-testid=scene-${picker}-change]`).click();
        await page.waitForSelector(`.mu-${picker}-dialog [data-testid=${picker}-option]`);
        expect(await overflowing(page)).toEqual([]);
        await shoot(page, `${picker}-picker-${theme}-${kind}`);
        await page.click(`[data-testid=${picker}-picker-cancel]`);
        await dialogGone(page);
      }
      expect(hashPath(page)).toBe('/multiples');
      await context.close();
    }
  }, 300_000);
});
