/**
 * /create (part 2 §2.2) against the real server: a script with two pauses, the public avatar and voice, an audition
 * that really plays, 合成视频 → the channel dialog → 本地合成 → 提交成功 → /works, where the work becomes playable and
 * its mp4 lasts as long as the audition (the cached audition is reused, not synthesized again), with the burned-in
 * captions chosen in the dialog sent with it and its SRT on the card (字幕); the audio-driven path;
 * every §5 message this page can show; screenshots of both themes at desktop and phone width
 * (into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG, countChars, decryptJson, pauseMarker, type Voice } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import type { ApiTestClient } from '../support/app';
import { escapeDialog, LOOKS, PHONE_VIEWPORT, horizontalOverflow, QUICK_THROTTLES, pastQuickThrottle, screenshots } from '../support/browser';
import { openChannelDialog, downloadPlayable, pickCreateAvatar, pickCreateVoice, publicAvatar, publicAvatars, trainedPublicVoices, toast, typeScript, useJourney, workCard, type PageOptions } from '../support/journey';
import { makeAudio, makeSpeech, makeVideo } from '../support/media';
import { uploadFile } from '../support/upload';
import { until } from '../support/wait';

const USERNAME = '13800009101';
const shoot = screenshots('create');
const AVATAR_NAME = '公共主播·横屏';
const VOICE_NAME = '公共·播音女声';

const { server, apiClient, loggedInPage, mediaDir, fishChannel } = useJourney({
  users: { [USERNAME]: 10_000 },
  timings: QUICK_THROTTLES,
  arrange: publicAvatars({ [AVATAR_NAME]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 640, height: 360, seconds: 6 }) }),
});
let dir: string;
let client: ApiTestClient;
let speech: string;

beforeAll(async () => {
  const fish = await fishChannel();
  dir = mediaDir();
  speech = await makeSpeech(path.join(dir, 'speech.mp3'), '大家好，欢迎来到我的直播间，今天给大家介绍一款新品，性价比非常高，喜欢的朋友不要错过。');
  await server.admin('voice', 'publish', speech, '--name', VOICE_NAME);

  client = await apiClient(USERNAME);
  await publicAvatar(client, AVATAR_NAME);
  await trainedPublicVoices(client, VOICE_NAME);

  // Two own voices on the Fish Audio channel (a loopback peer): one whose training failed, one still training.
  const sample = await uploadFile(client, 'voice', speech, 'sample.mp3');
  fish.failTraining = true;
  const failed = await client.call(API.voices.create, { name: '失败的声音', file_id: sample.data.file_id, api: 'fish' });
  expect(failed.code).toBe(0);
  await until(
    async () => (await client.call(API.voices.list, { source: 1, page: 1, limit: 100 })).data.list as Voice[],
    (list) => list.find((v) => v.id === failed.data.id)?.generate_status === 3,
    60_000,
    500,
  );
  fish.failTraining = false;
  fish.trainingPolls = 1_000_000;
  const training = await client.call(API.voices.create, { name: '训练中的声音', file_id: sample.data.file_id, api: 'fish' });
  expect(training.code).toBe(0);
}, 300_000);


// ---------------------------------------------------------------------------------------------------------------- helpers

async function openCreate(options: PageOptions = {}) {
  const { page, context } = await loggedInPage(USERNAME, '/create', options);
  await page.waitForSelector('[data-testid=create-panel]');
  await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
  return { page, context };
}

/** Dismisses every toast, so the next check sees only its own. */
async function clearToasts(page: Page) {
  await page.evaluate(() => document.querySelectorAll<HTMLElement>('.bp6-toast .bp6-button').forEach((b) => b.click()));
  await page.waitForFunction(() => document.querySelectorAll('.bp6-toast').length === 0, undefined, { timeout: 10_000 });
}

/** Brings a pane to the front (phones show the panes as tabs). */
const showPane = (page: Page, id: string) => page.click(`[data-testid=create-tab-${id}]`);

const pickPublicAvatar = (page: Page) => pickCreateAvatar(page, AVATAR_NAME);

async function pickPublicVoice(page: Page) {
  await showPane(page, 'voice');
  await pickCreateVoice(page, VOICE_NAME);
}

/** Turns burned-in captions on in the open channel dialog and picks 大 and 黄字黑边 (the position stays 底部). */
async function chooseCaptions(page: Page) {
  expect(await page.getAttribute('[data-testid=subtitle-options]', 'data-on')).toBe('0');
  await page.click('[data-testid=subtitle-options] .bp6-switch');
  await page.click('[data-testid=subtitle-size] >> text=大');
  await page.click('[data-testid=subtitle-color] >> text=黄字黑边');
  await page.waitForSelector('[data-testid=subtitle-sample].size-L.color-yellow');
}

/** The parameters of the work submissions the page sends (the envelope opened as the server opens it). */
function recordSubmissions(page: Page): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST' || new URL(r.url()).pathname !== API.works.create.path) return;
    const data = new URLSearchParams(r.postData() ?? '').get('data');
    if (data) sent.push(decryptJson(data) as Record<string, unknown>);
  });
  return sent;
}

/** 合成视频 → the channel dialog → 本地合成 (with burned-in captions when asked) → 提交成功 → 去作品页; answers the new work's card selector. */
async function submitAndGoToWorks(page: Page, { captions = false } = {}): Promise<string> {
  await openChannelDialog(page);
  expect(await page.textContent('[data-testid=create-channel-tips]')).toContain(MSG.effectOrder(['1.5 本地口型', '1.0 本地合成']));
  const local = page.locator('[data-testid=create-channel-local]');
  expect(await local.textContent()).toContain('积分/秒');
  await local.click();
  if (captions) await chooseCaptions(page);
  await page.click('[data-testid=create-channel-confirm]');
  await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
  expect(await page.textContent('.cr-alert')).toContain(MSG.submitSucceeded);
  await page.click('.cr-alert >> text=去作品页');
  await page.waitForFunction(() => location.hash === '#/works?type1=0&type2=1');
  await page.waitForSelector('[data-testid=works-tab-avatar][aria-selected=true]');
  const works = (await client.call(API.works.list, { page: 1, limit: 20 })).data.list as { id: number }[];
  return workCard(works[0]!.id);
}

/** Waits until the card is playable, plays it, downloads its mp4 and answers its length. */
const playableDuration = (page: Page, card: string, name: string) => downloadPlayable(page, card, path.join(dir, `${name}.mp4`));

// ---------------------------------------------------------------------------------------------------------------- journeys

describe('/create', () => {
  it('text-driven: two pauses, the public avatar and voice, a real audition, 本地合成, then a playable work of the audition’s length', { timeout: 300_000 }, async () => {
    const { page, context } = await openCreate();
    const auditionCalls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === API.voices.audition.path) auditionCalls.push(r.url());
    });

    // The name, editable, starts as 未命名.
    expect(await page.inputValue('[data-testid=create-name]')).toBe(LIMITS.defaultWorkName);
    await page.fill('[data-testid=create-name]', '新品口播');

    await typeScript(page, '大家好，欢迎来到我的直播间。', 0.5, '今天给大家带来一款新品，', 1, '性价比非常高。');
    const text = `大家好，欢迎来到我的直播间。${pauseMarker(0.5)}今天给大家带来一款新品，${pauseMarker(1)}性价比非常高。`;
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid=script-counter]')?.textContent?.replace(/\s/g, '') === expected,
      `${countChars(text)}/${LIMITS.scriptMaxChars}`,
    );
    expect(countChars(text)).toBe(33);

    await pickPublicAvatar(page);
    await pickPublicVoice(page);
    // The preview: the avatar's video, the voice, the estimate (characters / 4.2 + pauses), the channel's price.
    await showPane(page, 'preview');
    await page.waitForSelector('[data-testid=create-stage-video]');
    expect(await page.textContent('[data-testid=create-preview-voice]')).toContain(VOICE_NAME);
    expect(await page.textContent('[data-testid=create-preview-count]')).toContain('停顿 1.5 秒');
    expect(await page.textContent('[data-testid=create-preview-estimate]')).toBe(`约 ${Math.round(33 / 4.2 + 1.5)} 秒`);
    expect(await page.textContent('[data-testid=create-preview-price]')).toContain('积分/秒');
    expect(await page.textContent('[data-testid=create-channel-note]')).toContain(MSG.lipChannelNote);

    // Audition: a real sound plays.
    await page.click('[data-testid=create-audition]');
    await page.waitForFunction(
      () => {
        const a = document.querySelector<HTMLAudioElement>('[data-testid=create-audition-audio]');
        return a !== null && a.duration > 0 && a.currentTime > 0.3;
      },
      undefined,
      { timeout: 60_000 },
    );
    const first = await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=create-audition-audio]')!.currentTime);
    // It goes on playing: the time moves on by a quarter of a second.
    await page.waitForFunction((t) => document.querySelector<HTMLAudioElement>('[data-testid=create-audition-audio]')!.currentTime > t + 0.25, first, { timeout: 10_000 });
    const src = (await page.getAttribute('[data-testid=create-audition-audio]', 'src'))!;
    const mp3 = path.join(dir, 'audition.mp3');
    fs.writeFileSync(mp3, Buffer.from(await (await fetch(new URL(src, server.url))).arrayBuffer()));
    const auditionSeconds = (await probe(mp3, 'mp3')).duration;
    expect(auditionSeconds).toBeGreaterThan(5);
    expect(auditionCalls).toHaveLength(1);

    // Submit reuses the cached audition (no second synthesis), and sends the captions chosen in the dialog.
    const submissions = recordSubmissions(page);
    const card = await submitAndGoToWorks(page, { captions: true });
    expect(auditionCalls).toHaveLength(1);
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ subtitles: 1, subtitle_size: 'L', subtitle_position: 'bottom', subtitle_color: 'yellow' });
    expect(await page.textContent(`${card} [data-testid=work-name]`)).toContain('新品口播');
    const seconds = await playableDuration(page, card, 'text-work');
    expect(Math.abs(seconds - auditionSeconds)).toBeLessThanOrEqual(0.3);

    // The card offers the work's subtitles: the script's sentences, one cue each, without their end punctuation.
    const srtDownload = page.waitForEvent('download');
    await page.click(`${card} [data-testid=work-srt]`);
    const srtFile = path.join(dir, 'text-work.srt');
    await (await srtDownload).saveAs(srtFile);
    const cues = fs.readFileSync(srtFile, 'utf8').trim().split(/\r\n\r\n/);
    expect(cues.map((c) => c.split('\r\n').slice(2).join(''))).toEqual(['大家好，欢迎来到我的直播间', '今天给大家带来一款新品', '性价比非常高']);
    await context.close();
  });

  it('audio-driven: the requirements, an uploaded mp3, replay, then a playable work', { timeout: 300_000 }, async () => {
    const { page, context } = await openCreate();
    await page.click('[data-testid=create-mode] >> text=音频驱动');
    await page.waitForSelector('[data-testid=create-audio] >> text=音频要求');
    await page.setInputFiles('[data-testid=create-audio] input[type=file]', speech);
    await page.waitForSelector('[data-testid=create-audio-file] >> text=speech.mp3');
    await page.waitForFunction(() => (document.querySelector<HTMLAudioElement>('[data-testid=create-audio-player]')?.duration ?? 0) > 5);
    // Re-upload brings the upload back; the same file again.
    await page.click('[data-testid=create-audio-reupload]');
    await page.setInputFiles('[data-testid=create-audio] input[type=file]', speech);
    await page.waitForSelector('[data-testid=create-audio-file] >> text=speech.mp3');
    const audioSeconds = (await probe(speech, 'mp3')).duration;

    await pickPublicAvatar(page);
    const card = await submitAndGoToWorks(page);
    const seconds = await playableDuration(page, card, 'audio-work');
    expect(Math.abs(seconds - audioSeconds)).toBeLessThanOrEqual(0.3);
    await context.close();
  });

  it('says every §5 message this page can reach', { timeout: 180_000 }, async () => {
    const { page, context } = await openCreate();
    const say = async (action: () => Promise<void>, message: string) => {
      await clearToasts(page);
      await action();
      await toast(page, message);
      await pastQuickThrottle(page); // 合成视频 is throttled (1 s; QUICK_THROTTLES here)
    };
    const submit = () => showPane(page, 'preview').then(() => page.click('[data-testid=create-submit]'));
    const audition = () => showPane(page, 'preview').then(() => page.click('[data-testid=create-audition]'));

    await say(submit, MSG.avatarRequired);
    await say(audition, MSG.auditionNeedsTextAndVoice);
    await pickPublicAvatar(page);
    await say(submit, MSG.scriptRequired);
    await showPane(page, 'script');
    await typeScript(page, '你好');
    await say(submit, MSG.voiceRequired);
    await say(audition, MSG.auditionNeedsTextAndVoice);

    // Own voices: one failed, one training; neither can be chosen.
    await showPane(page, 'voice');
    await page.click('[data-testid=create-voice-source] >> text=我的声音');
    await say(() => page.click('[data-testid=create-voices] >> text=失败的声音'), MSG.voiceFailed);
    await say(() => page.click('[data-testid=create-voices] >> text=训练中的声音'), MSG.voiceTraining);
    expect(await page.locator('[data-testid=create-voice-params]').count()).toBe(0);

    // The voice parameters: 0.5–2, 0.1–3, 0.1–2, default 1; restore defaults.
    await pickPublicVoice(page);
    for (const key of ['rate', 'volume', 'pitch'] as const) {
      expect(await page.textContent(`[data-testid=create-param-${key}] .cr-param-value`)).toBe('1.0');
      expect(await page.locator(`[data-testid=create-param-${key}].off`).count()).toBe(0);
    }
    await page.focus('[data-testid=create-param-rate] .bp6-slider-handle');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid=create-param-rate] .cr-param-value')).toBe('1.2');
    await page.click('[data-testid=create-params-confirm]');
    await toast(page, MSG.modifySucceeded);
    expect(await page.textContent('[data-testid=create-preview-voice]')).toContain('语速 1.2');
    await page.click('[data-testid=create-params-reset]');
    expect(await page.textContent('[data-testid=create-param-rate] .cr-param-value')).toBe('1.0');

    // Audio mode without an audio; then an audio too short.
    await showPane(page, 'script');
    await page.click('[data-testid=create-mode] >> text=音频驱动');
    await say(submit, MSG.audioFileRequired);
    const short = makeAudio(path.join(dir, 'short.mp3'), { seconds: 3 });
    await showPane(page, 'script');
    await say(() => page.setInputFiles('[data-testid=create-audio] input[type=file]', short), MSG.audioDurationInvalid);
    await context.close();
  });

  it('looks right in both themes, on a desktop and a phone', { timeout: 240_000 }, async () => {
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await openCreate({ theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      const name = `create-${theme}-${phone ? 'phone' : 'desktop'}`;
      await showPane(page, 'script');
      await typeScript(page, '大家好，欢迎来到我的直播间。', 0.5, '今天给大家带来一款新品。');
      await pickPublicAvatar(page);
      await pickPublicVoice(page);
      if (phone) {
        expect(await horizontalOverflow(page, '.cr-pane, .se-toolbar, .se-footer, .cr-head', '.cr-page *:not(.monaco-editor *)')).toEqual([]);
        await shoot(page, `${name}-voice`);
        await showPane(page, 'preview');
        await shoot(page, `${name}-preview`);
        await showPane(page, 'script');
      }
      await shoot(page, `${name}`);
      await openChannelDialog(page);
      await shoot(page, `${name}-channels`);
      await chooseCaptions(page);
      await shoot(page, `${name}-captions`);
      await escapeDialog(page);
      if (!phone) {
        await showPane(page, 'script');
        await page.click('[data-testid=create-mode] >> text=音频驱动');
        await shoot(page, `${name}-audio`);
      }
      await context.close();

      // /multiples offers the same captions in its side panel, and not for an audio-only work.
      const multi = await loggedInPage(USERNAME, '/multiples', { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      const side = multi.page.locator('[data-testid=multi-side]');
      await side.locator('[data-testid=subtitle-options] .bp6-switch').click();
      await side.locator('[data-testid=subtitle-color] >> text=黄字黑边').click();
      await side.locator('[data-testid=subtitle-sample].color-yellow').waitFor();
      await shoot(side, `multiples-captions-${theme}-${phone ? 'phone' : 'desktop'}`);
      await side.locator('[data-testid=output-mode] >> text=仅音频').click();
      expect(await side.locator('[data-testid=subtitle-options]').getAttribute('data-on')).toBe('0');
      expect(await side.locator('[data-testid=subtitle-options]').textContent()).toContain(MSG.subtitlesAudioOnly);
      await multi.context.close();
    }
  });
});
