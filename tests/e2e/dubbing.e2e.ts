/**
 * The dubbing studio (/store/dubbing/index) against the real server: the store's 音频处理 card opens it (not 即将上线);
 * a two-role dialogue pasted as `甲：…` / `乙：…`, each role given a public voice, a line previewed, the free price
 * shown, generated; the dub plays, plays from a line, and its SRT downloads with one cue per line, in order, each
 * within 0.3 s of where that line's speech starts in the downloaded mp3; saved to the material library (the audio and
 * the script); 用于创作 opens /create with the dub as its audio and drives a playable work of the dub's length. A dub is
 * renamed and deleted from the history.
 * Single and dialogue mode, dark on a desktop and light on a 390 px phone (screenshots into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, DubbingStatus, MSG, parseSrt, type DubbingRecord, type Voice } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import type { ApiTestClient } from '../support/app';
import { LOOKS, PHONE_VIEWPORT, QUICK_THROTTLES, horizontalOverflow, screenshots } from '../support/browser';
import { openChannelDialog, audioPlays, pickCreateAvatar, publicAvatar, renameInDialog, publicAvatars, trainedPublicVoices, downloadPlayable, toast, typeScript, useJourney, workCard, type PageOptions } from '../support/journey';
import { makeSpeech, makeVideo, silencesIn } from '../support/media';
import { until } from '../support/wait';

const USERNAME = '13800009701';
const shoot = screenshots('dubbing');
const AVATAR_NAME = '公共主播·配音';
const HOST = '公共·主持人';
const GUEST = '公共·嘉宾';
const DIALOGUE = [
  ['甲', '大家好，欢迎收看今天的节目。'],
  ['乙', '谢谢主持人，很高兴来到这里。'],
  ['甲', '那我们现在就开始吧。'],
] as const;
const STUDIO = '/store/dubbing/index';

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  arrange: publicAvatars({ [AVATAR_NAME]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 640, height: 360, seconds: 6 }) }),
  users: { [USERNAME]: 10_000 },
  timings: { ...QUICK_THROTTLES, generationPollMs: 400, auditionPollMs: 300, worksPollMs: 1000 },
});
let dir: string;
let client: ApiTestClient;

beforeAll(async () => {
  dir = mediaDir();
  const [host, guest] = await Promise.all([
    makeSpeech(path.join(dir, 'host.mp3'), '各位观众朋友们大家好，欢迎收看今天的节目。', { pitch: 0.9 }),
    makeSpeech(path.join(dir, 'guest.mp3'), '谢谢主持人，很高兴来到这里和大家聊一聊。', { pitch: 1.3 }),
  ]);
  await server.admin('voice', 'publish', host, '--name', HOST);
  await server.admin('voice', 'publish', guest, '--name', GUEST);
  client = await apiClient(USERNAME);
  await trainedPublicVoices(client, HOST, GUEST);
  await publicAvatar(client, AVATAR_NAME);
}, 300_000);

// ---------------------------------------------------------------------------------------------------------------- helpers

async function openStudio(options: PageOptions = {}) {
  const { page, context } = await loggedInPage(USERNAME, STUDIO, options);
  await page.waitForSelector('[data-testid=dubbing-panel]');
  return { page, context };
}

async function pickVoice(page: Page, role: string | null, voice: string) {
  const card = role ? `[data-testid=dub-role][data-role="${role}"]` : '[data-testid=dub-role]';
  await page.click(`${card} [data-testid=dub-role-voice]`);
  await page.click(`[data-testid=voice-option] .mu-voice-option-main >> text=${voice}`);
  await page.click('[data-testid=voice-picker-confirm]');
  await page.waitForSelector(`${card} [data-testid=dub-role-voice] >> text=${voice}`);
}

/** What sticks out sideways on a phone (Monaco's own wide layers scroll inside the editor). */
const overflowing = (page: Page) => horizontalOverflow(page, '.dub-page, .se-toolbar, .se-footer', '.dub-page *:not(.monaco-editor *)');

const audioTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid=dub-audio]')!.currentTime);

async function download(page: Page, button: string, saveAs: string): Promise<string> {
  const started = page.waitForEvent('download');
  await page.click(button);
  const file = await started;
  await file.saveAs(saveAs);
  return file.suggestedFilename();
}

// ---------------------------------------------------------------------------------------------------------------- journeys

describe('the dubbing studio', () => {
  it('dubs a pasted two-role dialogue, plays it from a line, downloads its SRT, saves it and drives a work on /create', { timeout: 300_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/store');
    const card = '.dock-panel[data-route="/store"] [data-testid=store-card][data-path="/store/dubbing/index"]';
    expect(await page.textContent(card)).not.toContain(MSG.comingSoonPanel);
    await page.click(card);
    await page.waitForSelector('[data-testid=dubbing-panel]');

    await page.fill('[data-testid=dub-name]', '节目开场');
    await page.click('[data-testid=dub-mode] >> text=多人对话');
    await page.click('[data-testid=dub-paste]');
    await page.fill('[data-testid=dub-paste-text]', DIALOGUE.map(([role, text]) => `${role}：${text}`).join('\n'));
    await page.waitForSelector('[data-testid=dub-paste-found] >> text=识别到 3 句');
    await page.click('[data-testid=dub-paste-confirm]');
    await page.waitForSelector('.dub-paste-dialog', { state: 'detached' });
    expect(await page.locator('[data-testid=dub-line]').count()).toBe(3);
    expect(await page.locator('[data-testid=dub-line-text]').allTextContents()).toEqual(DIALOGUE.map(([, text]) => text));

    // Without voices the check names the role; then each role gets a public voice.
    await page.click('[data-testid=dub-generate]');
    await toast(page, MSG.dubRoleNeedsVoice('甲'));
    await pickVoice(page, '甲', HOST);
    await pickVoice(page, '乙', GUEST);

    // One line previewed (the voices' audition): it really plays.
    await page.click('[data-testid=dub-line][data-index="2"] [data-testid=dub-line-preview]');
    await audioPlays(page, '[data-testid=dub-audio]');
    expect(await page.getAttribute('[data-testid=dub-price]', 'data-credits')).toBe('0');
    expect(await page.textContent('[data-testid=dub-price]')).toContain('免费');

    await page.click('[data-testid=dub-generate]');
    await toast(page, MSG.submitSucceeded);
    await page.waitForSelector('[data-testid=dub-record] [data-testid=dub-record-status]');
    await page.waitForSelector('[data-testid=dub-result][data-status="3"]', { timeout: 60_000 });
    const record = ((await client.call(API.dubbing.list, { page: 1, limit: 1 })).data.list as DubbingRecord[])[0]!;
    expect(record).toMatchObject({ status: DubbingStatus.Done, name: '节目开场', roles: [`甲·${HOST}`, `乙·${GUEST}`], credits: 0 });
    expect(await page.locator('[data-testid=wave-marker]').count()).toBe(3);
    expect(await page.locator('[data-testid=dub-cue]').count()).toBe(3);

    // Play, then play from the third line.
    await page.click('[data-testid=dub-play]');
    await audioPlays(page, '[data-testid=dub-audio]');
    await page.click('[data-testid=dub-cue] >> nth=2');
    const third = record.cues[2]!.start;
    await page.waitForFunction((t) => {
      const a = document.querySelector<HTMLAudioElement>('[data-testid=dub-audio]')!;
      return !a.paused && a.currentTime >= t - 0.05 && a.currentTime < t + 2;
    }, third);
    await page.waitForSelector('.dub-cues li.active >> text=那我们现在就开始吧。');
    expect(await audioTime(page)).toBeGreaterThanOrEqual(third - 0.05);

    // The SRT: one cue per line (each a sentence of two caption lines at most), in order, each where its speech starts in the mp3.
    expect(await download(page, '[data-testid=dub-download-srt]', path.join(dir, 'dub.srt'))).toBe('节目开场.srt');
    expect(await download(page, '[data-testid=dub-download]', path.join(dir, 'dub.mp3'))).toBe('节目开场.mp3');
    const cues = parseSrt(fs.readFileSync(path.join(dir, 'dub.srt'), 'utf8'));
    expect(cues.map((c) => c.lines.join(''))).toEqual(DIALOGUE.map(([, text]) => text.replace(/。$/, '')));
    const mp3 = await probe(path.join(dir, 'dub.mp3'), 'mp3');
    expect(Math.abs(mp3.duration - record.duration)).toBeLessThan(0.1);
    const silences = silencesIn(path.join(dir, 'dub.mp3'), { noiseDb: -45, minSeconds: 0.2 });
    // Speech starts where a silence ends (the first line at the very start).
    const onsets = [0, ...silences.map((s) => s.end)].filter((o) => !silences.some((s) => s.start < 0.05 && o === 0));
    for (const cue of cues) expect(Math.min(...onsets.map((o) => Math.abs(o - cue.start))), `cue at ${cue.start}`).toBeLessThan(0.3);
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.start).toBeGreaterThan(cues[i - 1]!.end);

    // Saved to the material library: the audio and the script.
    await page.click('[data-testid=dub-save]');
    await toast(page, MSG.saveSucceeded);
    const materials = (await client.call(API.material.list, { page: 1, limit: 20 })).data.list as { id: number; type: string; name: string; origin?: string; text?: string }[];
    const audio = materials.find((m) => m.type === 'audio' && m.origin === 'dubbing')!;
    expect(audio.name).toBe('节目开场');
    expect(materials.find((m) => m.type === 'text' && m.origin === 'dubbing')?.text).toBe(DIALOGUE.map(([role, text]) => `${role}：${text}`).join('\n'));

    // 用于创作: /create with the dub as its audio (the same material, not a second copy), on the public avatar.
    await page.click('[data-testid=dub-use]');
    await page.waitForFunction((id) => location.hash === `#/create?origin=audio&audioId=${id}`, audio.id);
    await page.waitForSelector('[data-testid=create-audio-file] >> text=节目开场');
    await pickCreateAvatar(page, AVATAR_NAME);
    await openChannelDialog(page);
    await page.click('[data-testid=create-channel-local]');
    await page.click('[data-testid=create-channel-confirm]');
    await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
    await page.click('.cr-alert >> text=去作品页');
    const works = (await client.call(API.works.list, { page: 1, limit: 5 })).data.list as { id: number }[];
    const seconds = await downloadPlayable(page, workCard(works[0]!.id), path.join(dir, 'work.mp4'));
    expect(Math.abs(seconds - record.duration)).toBeLessThanOrEqual(0.3);
    expect(((await client.call(API.material.list, { type: 'audio', page: 1, limit: 20 })).data.list as { origin?: string }[]).filter((m) => m.origin === 'dubbing')).toHaveLength(1);
    await context.close();
  });

  it('renames and deletes a dub from the history', { timeout: 120_000 }, async () => {
    const voices = (await client.call(API.voices.list, { source: 2, page: 1, limit: 100 })).data.list as Voice[];
    const made = await client.call(API.dubbing.create, { name: '待整理', lines: JSON.stringify([{ voice_id: voices.find((v) => v.name === HOST)!.id, text: '这是一条要整理的配音。' }]) });
    await until(() => client.call(API.dubbing.list, { page: 1, limit: 5 }), (r) => r.data.list.find((d: DubbingRecord) => d.id === made.data.id)?.status === DubbingStatus.Done);
    const { page, context } = await openStudio();
    const row = `[data-testid=dub-record][data-id="${made.data.id}"]`;
    await page.click(`${row} [data-testid=dub-record-rename]`);
    await renameInDialog(page, 'dub-', '整理好了');
    await page.waitForSelector(`${row} [data-testid=dub-record-name] >> text=整理好了`);
    await page.click(`${row} [data-testid=dub-record-delete]`);
    await page.click('.dub-alert .bp6-alert-footer .bp6-button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector(row, { state: 'detached' });
    expect(((await client.call(API.dubbing.list, { page: 1, limit: 50 })).data.list as DubbingRecord[]).some((d) => d.id === made.data.id)).toBe(false);
    await context.close();
  });

  it('looks right in single and dialogue mode: dark on a desktop, light on a phone', { timeout: 240_000 }, async () => {
    // A finished dialogue in the history (made through the API), for the player below the project.
    const voices = (await client.call(API.voices.list, { source: 2, page: 1, limit: 100 })).data.list as Voice[];
    const voiceOf = (role: string) => voices.find((v) => v.name === (role === '甲' ? HOST : GUEST))!.id;
    const lines = DIALOGUE.map(([role, text], i) => ({ voice_id: voiceOf(role), text, role, ...(i === 1 ? { pause_after: 0.5 } : {}) }));
    const made = await client.call(API.dubbing.create, { name: '小店开张', lines: JSON.stringify(lines), gap: 0.3 });
    await until(() => client.call(API.dubbing.list, { page: 1, limit: 5 }), (r) => r.data.list.find((d: DubbingRecord) => d.id === made.data.id)?.status === DubbingStatus.Done);
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await openStudio({ theme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      const look = `${theme}-${phone ? 'phone' : 'desktop'}`;
      await pickVoice(page, null, HOST);
      await typeScript(page, '欢迎来到我们的小店。今天给大家介绍一款新茶，', 0.5, '它的香气很清新。\n喝完以后口中回甘，喜欢的话请关注我们！');
      await page.waitForSelector('[data-testid=dub-split-line] >> nth=2');
      await page.waitForSelector('[data-testid=dub-result][data-status="3"] [data-testid=dub-wave][data-state=ready]');
      await page.waitForFunction(() => [...document.querySelectorAll('.dub-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (phone) expect(await overflowing(page)).toEqual([]);
      await shoot(page, `single-${look}`);

      await page.click('[data-testid=dub-mode] >> text=多人对话');
      await page.click('[data-testid=dub-paste]');
      await page.fill('[data-testid=dub-paste-text]', DIALOGUE.map(([role, text]) => `${role}：${text}`).join('\n'));
      await page.click('[data-testid=dub-paste-confirm]');
      await pickVoice(page, '乙', GUEST);
      await page.click('[data-testid=dub-line][data-index="2"] [data-testid=dub-line-text]');
      await page.waitForSelector('[data-testid=dub-line][data-index="2"] .se-surface .monaco-editor .view-lines');
      if (phone) expect(await overflowing(page)).toEqual([]);
      // The page from its top (the editor scrolled itself into view), the pointer off the buttons.
      await page.evaluate(() => document.querySelector('.dub-page .page-head')!.scrollIntoView({ block: 'start' }));
      await page.mouse.move(1, 300);
      await shoot(page, `dialogue-${look}`);

      await page.evaluate(() => document.querySelector('[data-testid=dub-history]')!.scrollIntoView({ block: 'end' }));
      await shoot(page, `result-${look}`);
      await context.close();
    }
  });
});
