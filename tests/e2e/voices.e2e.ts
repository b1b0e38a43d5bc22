/**
 * Journeys of /clone (the clone flow from a real audio file, polling, rename, confirm, play, settings, modify,
 * delete, public voices) and /voice (the 3-file sample upload), against the real server, with real media made by the
 * npm ffmpeg; and the phone width.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG, type Voice, type VoiceChannel } from '../../src/contract';
import type { ApiTestClient } from '../support/app';
import { escapeDialog, horizontalOverflow, PHONE_VIEWPORT, QUICK_THROTTLES, pastQuickThrottle, frames, settled, tick } from '../support/browser';
import { cloneDialogRefusals, cloneNoticeRead, okCall as ok, renameInDialog, runCommand, toast, hashPath, audioPlays, useJourney } from '../support/journey';
import { makeAudio, makeSpeech } from '../support/media';
import { uploadFile } from '../support/upload';
import { until } from '../support/wait';

const USERS = { clone: '13800000021', modify: '13800000022', samples: '13800000023', phone: '13800000024' };

/** The voice list's polling while a voice trains, shortened from 10 s: the journey watches it refresh, then stop. */
const VOICE_POLL_MS = 1000;
const { operator, apiClient, loggedInPage, mediaDir, fishChannel } = useJourney({
  users: Object.values(USERS),
  credits: 10_000,
  timings: { ...QUICK_THROTTLES, voicePollMs: VOICE_POLL_MS },
  // Fish Audio's training is asked about every 0.5 s instead of 5.
  env: { VOICE_TRAINING_POLL_SECONDS: '0.5' },
});
let speech: string;
let speech2: string;
let short: string;

beforeAll(async () => {
  const fish = await fishChannel();
  fish.trainingPolls = 2;
  const dir = mediaDir();
  // The clone sample is real speech, made by the offline engine.
  speech = await makeSpeech(path.join(dir, '朗读样本.mp3'), '大家好，我是今天的主播。欢迎来到我们的直播间，今天给大家介绍几款好用的产品，希望大家喜欢。');
  speech2 = makeAudio(path.join(dir, 'second.m4a'), { seconds: 8 });
  short = makeAudio(path.join(dir, 'short.wav'), { seconds: 6 });
  await operator(API.admin.publicVoiceAdd, { name: '公共·知性女声', audio: speech });
});

// ---------------------------------------------------------------------------------------------------------------- helpers

const count = (page: Page, selector: string) => page.locator(selector).count();

/** Clones through the API on the offline channel and waits until the voice is ready. */
async function readyVoice(client: ApiTestClient, name: string, file: string): Promise<Voice> {
  const registered = await uploadFile(client, 'voice', file);
  if (registered.code !== 0) throw new Error(`upload: ${registered.msg}`);
  const { id } = await ok<{ id: number }>(client, API.voices.create, { name, file_id: registered.data.file_id, api: 'local', voice_channel_name: '' });
  const list = await until(
    async () => (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list,
    (l) => l.some((v) => v.id === id && v.generate_status !== 1),
    90_000,
    500,
  );
  const voice = list.find((v) => v.id === id);
  if (!voice || voice.generate_status === 3) throw new Error(`voice ${name} did not train: ${JSON.stringify(voice)}`);
  return voice;
}

const card = (id: number) => `[data-testid=voice-card][data-id="${id}"]`;

async function openMenu(page: Page, id: number) {
  await page.click(`${card(id)} [data-testid=voice-more]`);
  await page.waitForSelector('[data-testid=voice-menu]');
}
const menuItemDisabled = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).evaluate((el) => el.classList.contains('bp6-disabled') || el.getAttribute('aria-disabled') === 'true');

/** Every element of the open panels and dialogs stays inside the viewport's width; no panel scroller is wider than itself. */
const overflowing = (page: Page) => horizontalOverflow(page, '.vc-page', '.dock-panel *, .bp6-dialog *');

// ---------------------------------------------------------------------------------------------------------------- journeys

describe('/clone: my voices', () => {
  it('clones a voice from a real audio file: notice, channel, name, upload with its waveform, start; polling turns 训练中 into 可修改N次', async () => {
    const client = await apiClient(USERS.clone);
    const channels = (await ok<{ list: VoiceChannel[] }>(client, API.voices.channels, {})).list;
    // Fish Audio (against its loopback peer) trains for a while, so 训练中 can be watched turning ready.
    const local = channels.find((c) => c.api === 'fish')!;
    expect(local).toBeTruthy();

    const { page, context } = await loggedInPage(USERS.clone, '/clone');
    await page.waitForSelector('[data-testid=voice-empty]');
    await page.click('[data-testid=voice-empty-clone]');

    // The usage and payment notice: the agreement is required; the link goes to the clone usage rules.
    await cloneNoticeRead(page);
    expect(await page.getAttribute('.vc-notice-dialog a', 'href')).toBe('#/protocol?type=clone');
    expect(await page.textContent('[data-testid=clone-payment]')).toContain('积分');
    await page.click('[data-testid=voice-notice-next]');
    await toast(page, MSG.cloneConsentRequired);
    await tick(page, '.vc-notice-check');
    await page.click('[data-testid=voice-notice-next]');

    // The channel picker: the server's channels, xf hidden, price (免费 for 0), free and training times.
    await page.waitForSelector('[data-testid=voice-channel]');
    expect(await count(page, '[data-testid=voice-channel][data-api=xf]')).toBe(0);
    expect(await count(page, '[data-testid=voice-channel]')).toBe(channels.filter((c) => c.api !== 'xf').length);
    const localCard = '[data-testid=voice-channel][data-api=fish]';
    expect(await page.textContent(`${localCard} [data-testid=voice-channel-price]`)).toBe(local.credits > 0 ? `${local.credits} 积分/次` : '免费');
    expect(await page.textContent(`${localCard} [data-testid=voice-channel-free]`)).toContain(String(local.free_times));
    expect(await page.textContent(`${localCard} [data-testid=voice-channel-train]`)).toContain(String(local.train_times));
    expect(await page.textContent(localCard)).toContain(local.name);
    // The choice settles 0.5 s after the click.
    await page.click(localCard);
    expect(await count(page, '.vc-clone-dialog')).toBe(0);
    await page.waitForSelector('.vc-clone-dialog');

    // The clone dialog: the channel, the requirements with the channel's tip, the name then the audio are required.
    expect(await page.textContent('[data-testid=clone-channel]')).toContain(local.name);
    const requirements = (await page.textContent('[data-testid=voice-requirements]')) ?? '';
    for (const part of ['MP3 / M4A / WAV', `${LIMITS.audio.maxBytes / 1024 / 1024}MB`, '5 秒 ~ 30 分钟', '至少 10 秒', local.upload_tips.trim() || '3~5 分钟']) expect(requirements).toContain(part);
    // A wrong format is refused before upload; a real mp3 uploads, shows its waveform and plays.
    await cloneDialogRefusals(page, {
      prefix: 'voice-clone-', name: '我的播音腔', nameRequired: MSG.voiceNameRequired, fileRequired: MSG.voiceAudioRequired,
      wrongFile: { name: 'voice.ogg', mimeType: 'audio/ogg', buffer: Buffer.from('OggS') }, wrongFileRefused: MSG.audioInvalid,
    });
    await page.setInputFiles('[data-testid=voice-clone-upload] [data-testid=upload-input]', speech);
    await page.waitForSelector('[data-testid=voice-clone-player-wave][data-state=ready]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=voice-clone-preview]')).toContain('朗读样本.mp3');
    expect(await count(page, '[data-testid=voice-clone-short]')).toBe(0);
    await page.click('[data-testid=voice-clone-player-toggle]');
    await audioPlays(page, '[data-testid=voice-clone-player-audio]');
    await page.click('[data-testid=voice-clone-player-toggle]');

    await pastQuickThrottle(page);
    const lists: string[] = [];
    page.on('request', (r) => r.method() === 'GET' && new URL(r.url()).pathname === API.voices.list.path && lists.push(r.url()));
    await page.click('[data-testid=voice-clone-start]');
    await toast(page, MSG.cloneSubmitted);
    await page.waitForSelector('.vc-clone-dialog', { state: 'detached' });

    // The new voice trains (训练中), the list is asked again every 10 s (VOICE_POLL_MS here), and it turns 可修改N次 without a reload.
    const voice = (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list[0]!;
    expect(voice.name).toBe('我的播音腔');
    await page.waitForSelector(`${card(voice.id)}[data-status="1"]`);
    expect(await page.textContent(`${card(voice.id)} [data-testid=voice-status]`)).toBe('训练中');
    expect(await page.textContent(`${card(voice.id)} [data-testid=voice-channel]`)).toContain(local.name);
    expect(await page.textContent('[data-testid=voice-summary]')).toContain('1 个训练中');
    expect(await page.getAttribute('[data-testid=voice-summary]', 'data-polling')).toBe('true');
    await page.waitForSelector(`${card(voice.id)}[data-status="2"]`, { timeout: 60_000 });
    await toast(page, MSG.voiceCloneReady('我的播音腔'));
    expect(await page.textContent(`${card(voice.id)} [data-testid=voice-status]`)).toBe(`可修改${local.train_times}次`);
    expect(lists.length).toBeGreaterThanOrEqual(2);
    // Polling stops once nothing trains: the list says it no longer polls, and no list was asked for after that answer.
    const asked = lists.length;
    await page.waitForSelector('[data-testid=voice-summary][data-polling=false]');
    await frames(page);
    expect(lists.length).toBe(asked);
    await context.close();
  });

  it('searches, plays a card, renames, previews with settings, refuses delete until confirmed, confirms, deletes', async () => {
    const client = await apiClient(USERS.clone);
    const voice = (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list[0]!;
    const { page, context } = await loggedInPage(USERS.clone, '/clone');
    await page.waitForSelector(card(voice.id));
    expect(await page.textContent('[data-testid=voice-count]')).toBe('1');

    await page.fill('input[data-testid=voice-search]', '没有这个名字');
    await page.waitForSelector('[data-testid=voice-no-match]');
    await page.fill('input[data-testid=voice-search]', '播音');
    await page.waitForSelector(card(voice.id));
    await page.fill('input[data-testid=voice-search]', '');

    // The card plays the voice's url, and shows its waveform.
    await page.click(`${card(voice.id)} [data-testid=voice-play]`);
    await audioPlays(page, '[data-testid=voice-audio]');
    await page.waitForSelector(`${card(voice.id)} [data-testid=voice-wave][data-state=ready]`);
    await page.click(`${card(voice.id)} [data-testid=voice-play]`);
    await page.waitForFunction(() => document.querySelector<HTMLAudioElement>('[data-testid=voice-audio]')!.paused);

    // Rename: an empty name is refused with the spec's message.
    await openMenu(page, voice.id);
    expect(await menuItemDisabled(page, 'voice-action-rename')).toBe(false);
    expect(await menuItemDisabled(page, 'voice-action-modify')).toBe(false);
    expect(await menuItemDisabled(page, 'voice-action-delete')).toBe(true);
    await page.click('[data-testid=voice-action-rename]');
    await renameInDialog(page, 'voice-', '新闻播音腔', { blank: '' });
    await page.waitForSelector(`${card(voice.id)} [data-testid=voice-name] >> text=新闻播音腔`);

    // 试听与设置: the sample plays with its waveform; the settings are saved.
    await openMenu(page, voice.id);
    await page.click('[data-testid=voice-action-preview]');
    await page.waitForSelector('[data-testid=voice-preview-wave][data-state=ready]', { timeout: 20_000 });
    await audioPlays(page, '[data-testid=voice-preview-audio]');
    expect(await count(page, '[data-testid=voice-settings] .bp6-slider')).toBe(3);
    // Speed 1.0 → 1.2 with the keyboard; the preview plays faster at once, and the setting is saved.
    await page.focus('[data-testid=voice-setting-rate] .bp6-slider-handle');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid=voice-setting-rate] .vc-setting-value')).toBe('1.2');
    expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=voice-preview-audio]')!.playbackRate)).toBeCloseTo(1.2);
    // Audition: the text with a pause, synthesized with these settings on the server, then played.
    await page.fill('[data-testid=voice-audition-text]', '你好<#1#>这是合成的试听。');
    await page.click('[data-testid=voice-audition-run]');
    await page.waitForSelector('[data-testid=voice-audition-player]', { timeout: 30_000 });
    await audioPlays(page, '[data-testid=voice-audition-player]');
    const heard = await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=voice-audition-player]')!.duration);
    expect(heard).toBeGreaterThan(2);
    await page.click('[data-testid=voice-settings-save]');
    await toast(page, MSG.saveSucceeded);
    await page.waitForSelector('.vc-preview-dialog', { state: 'detached' });
    const saved = (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list[0]!;
    expect(saved.rate).toBeCloseTo(1.2);

    // Confirm: cancelling says so; confirming fixes the voice (不可修改), which may then be deleted.
    await page.click(`${card(voice.id)} [data-testid=voice-confirm]`);
    await page.click('.vc-alert button >> text=取消');
    await toast(page, MSG.confirmCancelled);
    expect(await page.getAttribute(card(voice.id), 'data-confirmed')).toBe('0');
    await page.click(`${card(voice.id)} [data-testid=voice-confirm]`);
    await page.click('.vc-alert button >> text=确认');
    await toast(page, MSG.confirmSucceeded);
    await page.waitForSelector(`${card(voice.id)}[data-confirmed="1"]`);
    expect(await page.textContent(`${card(voice.id)} [data-testid=voice-status]`)).toBe('不可修改');
    expect(await count(page, `${card(voice.id)} [data-testid=voice-confirm]`)).toBe(0);
    await openMenu(page, voice.id);
    expect(await menuItemDisabled(page, 'voice-action-modify')).toBe(true);
    expect(await menuItemDisabled(page, 'voice-action-confirm')).toBe(true);
    expect(await menuItemDisabled(page, 'voice-action-delete')).toBe(false);

    // Delete: cancelling says so; deleting empties the list.
    await page.click('[data-testid=voice-action-delete]');
    await page.click('.vc-alert button >> text=取消');
    await toast(page, MSG.deleteCancelled);
    expect(await count(page, card(voice.id))).toBe(1);
    await openMenu(page, voice.id);
    await page.click('[data-testid=voice-action-delete]');
    await page.click('.vc-alert button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector('[data-testid=voice-empty]');
    expect((await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list).toEqual([]);
    await context.close();
  });

  it('modifies a voice in the same dialog (its id and channel), one modification used; public voices play on tab 2', async () => {
    const client = await apiClient(USERS.modify);
    const voice = await readyVoice(client, '要修改的声音', speech);
    const { page, context } = await loggedInPage(USERS.modify, '/clone');
    await page.waitForSelector(`${card(voice.id)}[data-status="2"]`);
    const times = voice.remained_times;
    expect(await page.textContent(`${card(voice.id)} [data-testid=voice-status]`)).toBe(`可修改${times}次`);

    await openMenu(page, voice.id);
    await page.click('[data-testid=voice-action-modify]');
    await page.waitForSelector('.vc-clone-dialog');
    expect(await page.textContent('.vc-clone-dialog .bp6-dialog-header')).toContain('修改声音');
    expect(await page.inputValue('[data-testid=voice-clone-name]')).toBe('要修改的声音');
    expect(await count(page, '[data-testid=clone-change-channel]')).toBe(0);
    // A 6 s recording uploads, with the advice to record at least 10 s.
    await page.setInputFiles('[data-testid=voice-clone-upload] [data-testid=upload-input]', short);
    await page.waitForSelector('[data-testid=voice-clone-short]');
    await page.click('[data-testid=voice-clone-reupload]');
    await page.setInputFiles('[data-testid=voice-clone-upload] [data-testid=upload-input]', speech2);
    await page.waitForSelector('[data-testid=voice-clone-preview]');
    await page.click('[data-testid=voice-clone-start]');
    await toast(page, MSG.modifySucceeded);
    // The offline channel re-trains in well under a second: 训练中 may come and go before the list is asked again.
    await page.waitForSelector(`${card(voice.id)} [data-testid=voice-status] >> text=可修改${times - 1}次`, { timeout: 60_000 });
    expect(await page.getAttribute(card(voice.id), 'data-status')).toBe('2');
    const after = (await ok<{ list: Voice[] }>(client, API.voices.list, { source: 1, page: 1, limit: 100 })).list.find((v) => v.id === voice.id)!;
    expect(after.file_id).not.toBe(voice.file_id);

    // 公共声音: /clone?id=2, play only.
    await page.click('[data-testid=voice-tab-public]');
    await page.waitForFunction(() => location.hash.includes('id=2'));
    expect(hashPath(page)).toBe('/clone?id=2');
    const publicCard = page.locator('[data-testid=voice-card]', { hasText: '公共·知性女声' });
    await publicCard.waitFor();
    expect(await publicCard.locator('[data-testid=voice-more]').count()).toBe(0);
    await publicCard.locator('[data-testid=voice-play]').click();
    await audioPlays(page, '[data-testid=voice-audio]');

    // The palette's 克隆声音 goes back to my voices and opens the notice.
    await runCommand(page, '克隆声音');
    await page.waitForSelector('.vc-notice-dialog');
    expect(hashPath(page)).toBe('/clone?id=1');
    await context.close();
  });
});

describe('/voice: samples', () => {
  it('takes at most 3 audio files through the upload component, each playable with its waveform', async () => {
    const { page, context } = await loggedInPage(USERS.samples, '/voice');
    await page.waitForSelector('[data-testid=sample-tips]');
    const input = '[data-testid=sample-upload] [data-testid=upload-input]';
    expect(await page.getAttribute(input, 'multiple')).not.toBeNull();
    // Four at once: refused, nothing is sent.
    const signs: string[] = [];
    page.on('request', (r) => r.url().includes(API.upload.sign.path) && signs.push(r.url()));
    await page.setInputFiles(input, [speech, speech2, short, speech]);
    await toast(page, MSG.uploadTooMany(LIMITS.voiceSampleMaxFiles));
    expect(signs).toEqual([]);
    // Three: all upload, each with a player.
    await page.setInputFiles(input, [speech, speech2, short]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=sample-item]').length === 3, null, { timeout: 60_000 });
    expect(await count(page, '[data-testid=sample-upload] [data-testid=upload-item][data-phase=done]')).toBe(3);
    // A fourth: refused.
    await page.setInputFiles(input, short);
    await toast(page, MSG.uploadTooMany(LIMITS.voiceSampleMaxFiles));
    expect(await count(page, '[data-testid=sample-item]')).toBe(3);
    // Removing one frees a place.
    await page.locator('[data-testid=sample-upload] [data-testid=upload-item] button[aria-label=移除]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=sample-item]').length === 2);
    await page.locator('[data-testid=sample-player-toggle]').first().click();
    await audioPlays(page, '[data-testid=sample-player-audio]');
    await context.close();
  });
});

describe('phone 390x844', () => {
  it('has no horizontal overflow on /clone, its dialogs and /voice', async () => {
    const client = await apiClient(USERS.phone);
    await readyVoice(client, '手机上克隆的一个名字比较长的声音', speech);
    const { page, context } = await loggedInPage(USERS.phone, '/clone', { viewport: PHONE_VIEWPORT });
    await page.waitForSelector('[data-testid=voice-card]');
    await page.click('[data-testid=voice-play]');
    await page.waitForSelector('[data-testid=voice-wave][data-state=ready]');
    expect(await overflowing(page)).toEqual([]);

    await page.click('[data-testid=voice-clone-open]');
    await page.waitForSelector('.vc-notice-dialog');
    await settled(page, '.dock-panel *, .bp6-dialog *');
    expect(await overflowing(page)).toEqual([]);
    await tick(page, '.vc-notice-check');
    await page.click('[data-testid=voice-notice-next]');
    await page.waitForSelector('[data-testid=voice-channel]');
    await settled(page, '.dock-panel *, .bp6-dialog *');
    expect(await overflowing(page)).toEqual([]);
    await page.click('[data-testid=voice-channel][data-api=local]');
    await page.waitForSelector('.vc-clone-dialog [data-testid=upload-zone]');
    await page.setInputFiles('[data-testid=voice-clone-upload] [data-testid=upload-input]', speech);
    await page.waitForSelector('[data-testid=voice-clone-player-wave][data-state=ready]', { timeout: 30_000 });
    await settled(page, '.dock-panel *, .bp6-dialog *');
    expect(await overflowing(page)).toEqual([]);
    await escapeDialog(page);

    await page.evaluate(() => (location.hash = '#/voice'));
    await page.waitForSelector('.dock-panel[data-route="/voice"] [data-testid=sample-upload]');
    await page.setInputFiles('[data-testid=sample-upload] [data-testid=upload-input]', speech);
    await page.waitForSelector('[data-testid=sample-item]');
    await settled(page, '.dock-panel *, .bp6-dialog *');
    expect(await overflowing(page)).toEqual([]);
    await context.close();
  });
});
