/**
 * The super employee (/employee, /employee/talking) against a loopback streaming chat-completions peer: an operator
 * adds a bot with the CLI (appearing as a ready public avatar, arranged as the clone job leaves one: publishing it
 * with the CLI is server/cli/operations.spec.ts'); the user employs it from the 招聘
 * catalogue, opens it from 我的员工 and talks: the answer streams in as text, is spoken sentence by sentence in the
 * offline voice (the <audio> element really plays), and the avatar's mouth region opens with the loudness. With
 * SHOTS_DIR set, both screens in both themes at desktop and phone width.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG } from '../../src/contract';
import { LOOKS, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { makeFaceVideo } from '../support/face-media';
import { ffmpegCached, makeSpeech, mediaDir as sharedMediaDir } from '../support/media';
import { startOpenAiPeer, type OpenAiPeer } from '../support/peers/openai-peer';
import { startTranscriptionPeer, type TranscriptionPeer } from '../support/peers/transcription-peer';
import { publicAvatar, publicAvatars, toast, useJourney } from '../support/journey';

const USER = '13800009401';
const shoot = screenshots('employee');
/** What the fake microphone hears while 按住说话 is held: a steady sound, which the transcription peer hears as one span. */
const MICROPHONE = ffmpegCached(path.join(sharedMediaDir(), 'employee-microphone.wav'), ['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000', '-t', '3', '-ac', '1']);
/** The face the bots appear with. */
const faceVideo = (dir: string) => makeFaceVideo(path.join(dir, 'face.mp4'), { width: 360, height: 480, seconds: 5 });
const { server, loggedInPage, apiClient, mediaDir } = useJourney({ users: { [USER]: 1000 }, fakeMicrophone: MICROPHONE, arrange: publicAvatars({ 客服主播: faceVideo }) });
let peer: OpenAiPeer;
let asr: TranscriptionPeer;
const ANSWER = '您好，我是小安，很高兴为您服务。我们的商品支持七天无理由退货。还有什么可以帮您？';

beforeAll(async () => {
  [peer, asr] = await Promise.all([startOpenAiPeer(), startTranscriptionPeer()]);
  asr.texts = ['你们几点发货'];
  await server.admin('site', 'set', `chat_base_url=${peer.url}`, `chat_api_key=${peer.apiKey}`);
  const dir = mediaDir();
  const video = faceVideo(dir);
  const avatarId = String((await publicAvatar(await apiClient(USER), '客服主播')).id);
  const sample = await makeSpeech(path.join(dir, 'voice.mp3'), '大家好，欢迎光临本店，今天给大家介绍几款新品，有任何问题都可以问我。');
  const voice = await server.admin('voice', 'publish', sample, '--name', '客服女声', '--wait', '--timeout', '300');
  const voiceId = /public voice (\d+)/.exec(voice)![1]!;
  const prompt = path.join(dir, 'prompt.txt');
  fs.writeFileSync(prompt, '你是小安，一名耐心的电商客服。');
  await server.admin('bot', 'add', '--type', '客服', '--name', '小安', '--desc', '售前售后都能答，7×24 小时在线', '--avatar', avatarId, '--voice', voiceId, '--prompt-file', prompt, '--welcome', '您好，我是小安，有什么可以帮您？', '--credits', '5');
  const picture = path.join(dir, 'teacher.png');
  await server.admin('bot', 'add', '--type', '教育', '--name', '小智', '--desc', '中学数学辅导老师', '--avatar', await facePicture(video, picture), '--prompt-file', prompt, '--credits', '0');
}, 360_000);
afterAll(() => Promise.all([peer?.close(), asr?.close()]));

/** A still of the face video, for the picture bot. */
async function facePicture(video: string, out: string): Promise<string> {
  const { FFMPEG } = await import('../support/media');
  const { execFileSync } = await import('node:child_process');
  execFileSync(FFMPEG, ['-y', '-v', 'error', '-i', video, '-frames:v', '1', out]);
  return out;
}

/** Seconds the page's speech element has played, summed over its played ranges. */
const playedSeconds = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-testid=employee-audio]');
    if (!audio) return 0;
    let sum = 0;
    for (let i = 0; i < audio.played.length; i++) sum += audio.played.end(i) - audio.played.start(i);
    return sum;
  });

describe('super employee', () => {
  it('employs a bot the operator added, opens it from my employees and talks: text streamed, voice played, mouth moving', async () => {
    const { page, context } = await loggedInPage(USER, '/employee');
    await page.waitForSelector('[data-testid=employee-catalogue-card] >> text=小安');
    expect(await page.locator('[data-testid=employee-type]').allInnerTexts()).toEqual(['全部', '客服', '教育']);
    await page.click('[data-testid=employee-type] >> text=教育');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=employee-catalogue-card]').length === 1);
    expect(await page.innerText('[data-testid=employee-catalogue]')).toContain('小智');
    await page.click('[data-testid=employee-type] >> text=全部');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=employee-catalogue-card]').length === 2);

    const card = page.locator('[data-testid=employee-catalogue-card]', { hasText: '小安' });
    await card.locator('[data-testid=employee-employ]').click();
    await toast(page, '已聘用「小安」');
    await page.waitForSelector('[data-testid=employee-mine-card] >> text=小安');
    await card.locator('[data-testid=employee-talk]').waitFor();

    await page.click('[data-testid=employee-mine-card] >> text=小安');
    await page.waitForSelector('[data-testid=employee-talking]');
    await page.waitForSelector('[data-testid=employee-mouth]');
    await page.waitForSelector('text=您好，我是小安，有什么可以帮您？');

    const client = await apiClient(USER);
    const before = (await client.call(API.account.credits, {})).data.credits as number;
    peer.behave({ kind: 'reply', text: ANSWER, chunkChars: 3, chunkDelayMs: 30 });
    // The widest the mouth opens while the answer is spoken, caught at every change of the face's style: a poll can
    // fall between the loud frames of short sentences when the machine is busy.
    await page.evaluate(() => {
      const w = window as unknown as { widestMouth: number };
      w.widestMouth = 0;
      new MutationObserver((changes) => {
        for (const { target } of changes) {
          const el = target as HTMLElement;
          if (el.dataset.testid === 'employee-face') w.widestMouth = Math.max(w.widestMouth, Number(el.style.getPropertyValue('--open')) || 0);
        }
      }).observe(document.body, { attributes: true, attributeFilter: ['style'], subtree: true });
    });
    await page.fill('[data-testid=employee-input]', '可以退货吗');
    await page.click('[data-testid=employee-send]');
    await page.waitForSelector('[data-testid=employee-question] >> text=可以退货吗');
    // Streamed: part of the answer shows before all of it.
    await page.waitForFunction((full) => {
      const text = document.querySelector('[data-testid=employee-answer] .talk-text')?.textContent ?? '';
      return text.length > 0 && text.length < full.length;
    }, ANSWER);
    await page.waitForFunction((full) => document.querySelector('[data-testid=employee-answer] .talk-text')?.textContent === full, ANSWER);
    // Spoken: the element really played, and the mouth opened with the voice (the first sentence is synthesised on
    // this machine's offline voice, which a loaded CI machine makes slow).
    await page.waitForSelector('[data-testid=employee-speaking]', { timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { widestMouth: number }).widestMouth > 0.3, undefined, { timeout: 60_000 });
    await shoot(page.locator('[data-testid=employee-face]'), 'employee-mouth-open');
    await page.waitForFunction(() => {
      const audio = document.querySelector<HTMLAudioElement>('audio[data-testid=employee-audio]');
      return !!audio && audio.currentTime > 0.3;
    }, undefined, { timeout: 20_000 });
    await page.waitForSelector('[data-testid=employee-speaking]', { state: 'detached', timeout: 60_000 });
    // All sentences played one after another: well over a second of speech.
    expect(await playedSeconds(page)).toBeGreaterThan(1);
    expect(peer.requests.at(-1)!.system).toBe('你是小安，一名耐心的电商客服。');
    expect((await client.call(API.account.credits, {})).data.credits).toBe(before - 5);

    // 生成视频: the answer becomes a lip-synced work of the bot's avatar and voice on /works, at the channel's price.
    await page.click('[data-testid=employee-make-video]');
    await toast(page, MSG.submitAlert);
    const works = (await client.call(API.works.list, { page: 1, limit: 10 })).data.list as { name: string }[];
    expect(works.map((w) => w.name)).toContain(`小安·${[...ANSWER].slice(0, 12).join('')}`);
    expect((await client.call(API.account.credits, {})).data.credits).toBeLessThan(before - 5);

    // 按住说话: without a recognition engine the screen says why; with one, what the microphone heard is sent.
    await page.waitForSelector(`[data-testid=employee-voice-off] >> text=${MSG.botHearNoEngine}`);
    expect(await page.isDisabled('[data-testid=employee-hold-talk]')).toBe(true);
    await shoot(page.locator('.talk-main'), 'employee-voice-off');
    await server.admin('site', 'set', `asr_base_url=${asr.url}`, `asr_api_key=${asr.apiKey}`);
    await page.reload();
    await page.waitForSelector('[data-testid=employee-hold-talk]:not([disabled])');
    expect(await page.locator('[data-testid=employee-voice-off]').count()).toBe(0);
    peer.behave({ kind: 'reply', text: '下午四点前的订单当天发货。' });
    const hold = page.locator('[data-testid=employee-hold-talk]');
    await hold.hover();
    await page.mouse.down();
    // The button counts the seconds held; release after a whole one (enough sound to hold a word).
    await page.waitForSelector('[data-testid=employee-hold-talk] >> text=松开发送 1″');
    await shoot(page.locator('.talk-compose'), 'employee-voice-recording');
    await page.mouse.up();
    await page.waitForSelector('[data-testid=employee-question] >> text=你们几点发货');
    await page.waitForSelector('[data-testid=employee-answer] >> text=下午四点前的订单当天发货。');
    expect(asr.requests.at(-1)!.seconds).toBeGreaterThan(0.8);
    await context.close();
  }, 180_000);

  it('my employees show the last message; the conversation reopens; fits a phone and both themes', async () => {
    for (const { theme, phone } of LOOKS) {
      const viewport = phone ? PHONE_VIEWPORT : undefined;
      const office = await loggedInPage(USER, '/employee', { theme, viewport });
      await office.page.waitForSelector('[data-testid=employee-mine-card] >> text=当天发货');
      await office.page.waitForSelector('[data-testid=employee-catalogue-card] >> text=小智');
      await office.page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.employee-portrait')].every((i) => i.complete && i.naturalWidth > 0));
      if (phone) expect(await horizontalOverflow(office.page, '.employee-page', '.employee-page *')).toEqual([]);
      await shoot(office.page, `employee-${theme}-${phone ? 'phone' : 'desktop'}`);
      await office.page.click('[data-testid=employee-mine-card] >> text=小安');
      await office.page.waitForSelector('[data-testid=employee-answer] >> text=当天发货');
      await office.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.talk-face video')?.readyState ?? 0) >= 2);
      if (phone) expect(await horizontalOverflow(office.page, '.talk-lines', '.talk-page *')).toEqual([]);
      await shoot(office.page, `employee-talking-${theme}-${phone ? 'phone' : 'desktop'}`);
      await office.context.close();
    }
  });
});
