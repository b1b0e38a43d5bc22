/**
 * Video translation (part 2 §2.7) against the real server: /store/sea says that without a recognition engine it reads
 * the captions on screen offline, until the operator CLI points it at a loopback transcription peer (which finds the spoken spans in the
 * audio it gets) and the chat peer; then a clip whose speech the offline engine made is uploaded, its languages and
 * the voice-only mode chosen, the price shown and submitted; on /works under 翻译视频 it plays, downloads with a
 * length within 5% of the original, and its SRT downloads with one cue per spoken sentence. Screenshots: dark
 * desktop and light phone (into SHOTS_DIR when set).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, TranslationMode, pauseMarker, translateCredits } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import { LOOKS, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { downloadPlayable, toast, useJourney, workCard } from '../support/journey';
import { FFMPEG, makeSpeech, mediaDir as newMediaDir } from '../support/media';
import { startOpenAiPeer, type OpenAiPeer } from '../support/peers/openai-peer';
import { startTranscriptionPeer, type TranscriptionPeer } from '../support/peers/transcription-peer';

const USERNAME = '13800009601';
const shoot = screenshots('translation');
const SPOKEN = ['大家好', '欢迎来到我们的小店', '今天给大家介绍一款新茶', '它的香气很清新', '喝完以后口中回甘', '喜欢的话请关注我们'];
const ENGLISH = ['Hello everyone', 'Welcome to our little shop', 'Today we introduce a new tea', 'It smells fresh', 'It leaves a sweet aftertaste', 'Follow us if you like it'];
/** The 20 s clip: six spoken lines with pauses, then the test pattern's silence to the end. */
const SECONDS = 20;

let asr: TranscriptionPeer;
let chat: OpenAiPeer;
const dir = newMediaDir();
const clip = path.join(dir, 'tea-shop.mp4');

beforeAll(async () => {
  const speech = await makeSpeech(path.join(dir, 'speech.mp3'), SPOKEN.join(pauseMarker(1)));
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-i', speech, '-af', 'apad', '-t', String(SECONDS),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip]);
  [asr, chat] = await Promise.all([startTranscriptionPeer(), startOpenAiPeer()]);
  asr.texts = SPOKEN;
  chat.behave({ kind: 'reply', text: (user) => JSON.stringify((JSON.parse(user) as string[]).map((t) => ENGLISH[SPOKEN.indexOf(t)] ?? t)) });
});
const { server, loggedInPage, apiClient } = useJourney({ users: { [USERNAME]: 500 } });
afterAll(async () => {
  await Promise.all([asr?.close(), chat?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('translation', () => {
  it('translates an uploaded clip, plays and downloads it on /works with its SRT', { timeout: 120_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/store/sea');
    // No recognition engine: the captions on screen are read offline, and the screen says so.
    await page.waitForSelector(`[data-testid=translation-offline] >> text=${MSG.translationCaptionsOffline}`);
    expect(await page.locator('[data-testid=translation-not-ready]').count()).toBe(0);
    await page.waitForFunction(() => [...document.querySelectorAll('.tr-page .bp6-icon')].every((el) => el.querySelector('svg')));
    await shoot(page, 'sea-offline-dark-desktop');

    await server.admin('site', 'set', `asr_base_url=${asr.url}`, `asr_api_key=${asr.apiKey}`, 'asr_model=whisper-large-v3', `chat_base_url=${chat.url}`, `chat_api_key=${chat.apiKey}`);
    await page.reload();
    await page.waitForSelector('[data-testid=translation-submit]:not([disabled])');
    expect(await page.locator('[data-testid=translation-offline]').count()).toBe(0);

    // Nothing chosen: the spec's messages, in order.
    await page.click('[data-testid=translation-submit]');
    await toast(page, MSG.translationVideoRequired);
    await page.setInputFiles('[data-testid=translation-upload] input[type=file]', clip);
    await page.waitForSelector(`[data-testid=translation-price] >> text=${SECONDS} 秒`, { timeout: 30_000 });
    await page.click('[data-testid=translation-submit]');
    await toast(page, MSG.translationSourceRequired);
    await page.selectOption('[data-testid=translation-source]', 'zh');
    await page.selectOption('[data-testid=translation-target]', 'en');
    await page.click('[data-testid=translation-mode] >> text=仅换声音');
    await page.waitForSelector(`[data-testid=translation-price] >> text=约 ${translateCredits(SECONDS, TranslationMode.VoiceOnly)} 积分`);
    await page.click('[data-testid=translation-submit]');
    await toast(page, MSG.submitSucceeded);
    await page.waitForSelector('[data-testid=translation-record]');

    const client = await apiClient(USERNAME);
    const [record] = (await client.call(API.translation.list, { page: 1, limit: 1 })).data.list;
    await page.click('[data-testid=translation-works]');
    await page.waitForSelector('[data-testid=works-tab-translate][aria-selected=true]');
    const card = workCard(record.id);
    const seconds = await downloadPlayable(page, card, path.join(dir, 'translated.mp4'), 60_000);
    expect(Math.abs(seconds - SECONDS) / SECONDS).toBeLessThan(0.05);
    expect((await probe(path.join(dir, 'translated.mp4'), 'mp4')).audio?.codec).toBe('aac');

    const srtDownload = page.waitForEvent('download');
    await page.click(`${card} [data-testid=work-srt]`);
    const srtFile = path.join(dir, 'translated.srt');
    await (await srtDownload).saveAs(srtFile);
    const cues = fs.readFileSync(srtFile, 'utf8').trim().split(/\r\n\r\n/);
    expect(cues.map((c) => c.split('\r\n')[2])).toEqual(ENGLISH);
    await context.close();
  });

  it('looks right dark on a desktop and light on a phone', { timeout: 60_000 }, async () => {
    for (const look of LOOKS) {
      const { page, context } = await loggedInPage(USERNAME, '/store/sea', { theme: look.theme, ...(look.phone ? { viewport: PHONE_VIEWPORT } : {}) });
      await page.waitForSelector('[data-testid=translation-record][data-status="3"]');
      // The upload box's code loads after the screen: shoot it drawn, not its placeholder.
      await page.waitForSelector('[data-testid=translation-upload] input[type=file]', { state: 'attached' });
      await page.waitForFunction(() => [...document.querySelectorAll('.tr-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (look.phone) expect(await horizontalOverflow(page, '.tr-page', '.tr-page *')).toEqual([]);
      await shoot(page, `sea-${look.theme}-${look.phone ? 'phone' : 'desktop'}`);
      await context.close();
    }
  });
});
