/**
 * A voice cloned on a self-hosted cloning server, in the browser: the operator points channel hs at a fish-speech
 * server (the loopback peer that speaks HeyGem's protocol) with `npm run admin -- channel set`; the user picks it in
 * the clone flow (its own upload tips, no 剩余免费 beside 免费), clones from a real recording, auditions the voice, and
 * speaks a /create work with it. The picker's screenshot goes to SHOTS_DIR when set.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CLONING_SERVER_UPLOAD_TIPS, MSG, type Voice } from '../../src/contract';
import type { ApiTestClient } from '../support/app';
import { QUICK_THROTTLES, pastQuickThrottle, screenshots, tick } from '../support/browser';
import { audioPlays, cloneNoticeRead, pickCreateAvatar, pickCreateVoice, publicAvatar, publicAvatars, okCall as ok, toast, typeScript, useJourney } from '../support/journey';
import { makeSpeech, makeVideo } from '../support/media';
import { startFishSpeechPeer, type FishSpeechPeer } from '../support/peers/fish-speech-peer';
import { until } from '../support/wait';

const USERNAME = '13800009201';
const shoot = screenshots('voices-cloning-server');
const AVATAR_NAME = '公共主播·克隆声音';
const VOICE_NAME = '我的本地克隆';

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  arrange: publicAvatars({ [AVATAR_NAME]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 640, height: 360, seconds: 6 }) }),
  users: { [USERNAME]: 10_000 },
  timings: QUICK_THROTTLES,
});
let peer: FishSpeechPeer;
let client: ApiTestClient;
let speech: string;

beforeAll(async () => {
  peer = await startFishSpeechPeer();
  await server.admin('channel', 'set', 'hs', '--enabled', 'true', '--base-url', peer.url, '--share-dir', peer.dataDir);
  const dir = mediaDir();
  speech = await makeSpeech(path.join(dir, '我的录音.mp3'), '大家好，我是今天的主播。欢迎来到我们的直播间，今天给大家介绍几款好用的产品，希望大家喜欢。');
  client = await apiClient(USERNAME);
  await publicAvatar(client, AVATAR_NAME);
}, 240_000);
afterAll(() => peer?.close());

const card = (id: number) => `[data-testid=voice-card][data-id="${id}"]`;

describe('a voice cloned on a fish-speech server', () => {
  it('is picked with its own tips, cloned through the server and auditioned', { timeout: 300_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/clone');
    await page.waitForSelector('[data-testid=voice-empty]');
    await page.click('[data-testid=voice-empty-clone]');
    await cloneNoticeRead(page);
    await tick(page, '.vc-notice-check');
    await page.click('[data-testid=voice-notice-next]');

    // The picker lists the fish-speech channel; free channels show 免费 and no 剩余免费 line.
    const hs = '[data-testid=voice-channel][data-api=hs]';
    await page.waitForSelector(hs);
    expect(await page.textContent(`${hs} [data-testid=voice-channel-price]`)).toBe('免费');
    expect(await page.locator(`${hs} [data-testid=voice-channel-free]`).count()).toBe(0);
    expect(await page.locator('[data-testid=voice-channel][data-api=local] [data-testid=voice-channel-free]').count()).toBe(0);
    expect(await page.textContent('[data-testid=voice-channel][data-api=local]')).toContain('不复制音色');
    await shoot(page.locator('.vc-channel-dialog'), 'channel-picker');

    await page.click(hs);
    await page.waitForSelector('.vc-clone-dialog');
    expect(await page.textContent('[data-testid=clone-channel]')).toContain('本地克隆 fish-speech');
    expect(await page.textContent('[data-testid=voice-requirements]')).toContain(CLONING_SERVER_UPLOAD_TIPS.fishspeech);
    await page.fill('[data-testid=voice-clone-name]', VOICE_NAME);
    await page.setInputFiles('[data-testid=voice-clone-upload] [data-testid=upload-input]', speech);
    await page.waitForSelector('[data-testid=voice-clone-player-wave][data-state=ready]', { timeout: 30_000 });
    await pastQuickThrottle(page);
    await page.click('[data-testid=voice-clone-start]');
    await toast(page, MSG.cloneSubmitted);
    const voice = (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list[0]!;
    expect(voice).toMatchObject({ name: VOICE_NAME, api: 'hs' });
    await page.waitForSelector(`${card(voice.id)}[data-status="2"]`, { timeout: 60_000 });
    // The sample reached the server's shared volume and was prepared there.
    expect(peer.trainings).toHaveLength(1);
    expect(peer.prepared.size).toBe(1);

    // Audition: the server speaks each stretch with the prepared reference; the pause is silence between them.
    await page.click(`${card(voice.id)} [data-testid=voice-more]`);
    await page.waitForSelector('[data-testid=voice-menu]');
    await page.click('[data-testid=voice-action-preview]');
    await page.fill('[data-testid=voice-audition-text]', '你好<#1#>这是我克隆的声音。');
    await page.click('[data-testid=voice-audition-run]');
    await page.waitForSelector('[data-testid=voice-audition-player]', { timeout: 30_000 });
    await audioPlays(page, '[data-testid=voice-audition-player]');
    const [reference] = [...peer.prepared.keys()];
    expect(peer.invokes.map((c) => [c.text, c.reference_audio])).toEqual([['你好', reference], ['这是我克隆的声音。', reference]]);

    await context.close();
  });

  it('speaks a /create work: the script, a public avatar, the cloned voice; its audition plays, then the work renders', { timeout: 300_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/create');
    await page.waitForSelector('[data-testid=create-panel]');
    await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await typeScript(page, '大家好，这是我克隆的声音。', 1, '欢迎来到直播间。');
    await pickCreateAvatar(page, AVATAR_NAME);
    await page.click('[data-testid=create-tab-voice]');
    await pickCreateVoice(page, VOICE_NAME, '我的声音');
    await page.click('[data-testid=create-tab-preview]');
    expect(await page.textContent('[data-testid=create-preview-voice]')).toContain(VOICE_NAME);
    // After a reload the voice pane opens on 我的声音, with the chosen voice picked (not on the empty 公共声音).
    await page.reload();
    await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await page.click('[data-testid=create-tab-voice]');
    await page.waitForSelector(`[data-testid=create-voices] .cr-voice.picked >> text=${VOICE_NAME}`);
    expect(await page.textContent('[data-testid=create-voice-source] [aria-checked=true], [data-testid=create-voice-source] [aria-pressed=true], [data-testid=create-voice-source] .bp6-active')).toContain('我的声音');
    await page.click('[data-testid=create-tab-preview]');
    const reference = [...peer.prepared.keys()][0];
    const before = peer.invokes.length;
    await page.click('[data-testid=create-audition]');
    await page.waitForSelector('[data-testid=create-audition-audio]', { state: 'attached', timeout: 60_000 });
    await audioPlays(page, '[data-testid=create-audition-audio]');
    expect(peer.invokes.slice(before).map((c) => [c.text, c.reference_audio])).toEqual([['大家好，这是我克隆的声音。', reference], ['欢迎来到直播间。', reference]]);

    await page.click('[data-testid=create-submit]');
    await page.waitForSelector('.cr-channel-dialog');
    await page.click('[data-testid=create-channel-local]');
    await page.click('[data-testid=create-channel-confirm]');
    await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
    const works = await until(
      async () => (await client.call(API.works.list, { page: 1, limit: 10 })).data.list as { status: number; duration: number }[],
      (list) => (list[0]?.status ?? 0) >= 3,
      120_000,
      1000,
    );
    expect(works[0]).toMatchObject({ status: 3 });
    expect(works[0]!.duration).toBeGreaterThan(3);
    await context.close();
  });
});
