/**
 * Journeys of the upload component, /profile (clone, play, create, delete), /gProfile, /works and /material/index,
 * against the real server, with real media made by the npm ffmpeg.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG, type Avatar } from '../../src/contract';
import type { ApiTestClient } from '../support/app';
import { escapeDialog, PHONE_VIEWPORT, horizontalOverflow, QUICK_THROTTLES, pastQuickThrottle, settled, tick } from '../support/browser';
import { cloneDialogRefusals, downloadWork, okCall as ok, renameInDialog, runCommand, toast, hashPath, useJourney } from '../support/journey';
import { makeAudio, makeImage, makeVideo } from '../support/media';
import { uploadFile } from '../support/upload';

const USERS = { upload: '13800000001', clone: '13800000002', works: '13800000003', material: '13800000004', phone: '13800000005' };

/** The lists' polling, shortened from 15 s (works) and 5 s (avatars): the journey watches them refresh on their own. */
const LIST_POLL_MS = 1000;
const { operator, apiClient, loggedInPage, mediaDir } = useJourney({
  users: Object.values(USERS),
  credits: 10_000,
  timings: { ...QUICK_THROTTLES, worksPollMs: LIST_POLL_MS, avatarPollMs: LIST_POLL_MS },
});
let dir: string;
let portraitVideo: string;
let landscapeVideo: string;
let png: string;
let mp3: string;

beforeAll(async () => {
  dir = mediaDir();
  portraitVideo = makeVideo(path.join(dir, '竖屏口播.mp4'), { width: 360, height: 640, seconds: 6 });
  landscapeVideo = makeVideo(path.join(dir, 'landscape.mp4'), { width: 640, height: 360, seconds: 5 });
  png = makeImage(path.join(dir, 'cover.png'), { width: 360, height: 640 });
  mp3 = makeAudio(path.join(dir, 'speech.mp3'), { seconds: 6 });
  await operator(API.admin.publicAvatarAdd, { name: '公共主播·横屏', orientation: 1, video: landscapeVideo, cover: png });
  await operator(API.admin.publicAvatarAdd, { name: '公共讲师·竖屏', orientation: 2, video: portraitVideo, cover: png });
});

// ---------------------------------------------------------------------------------------------------------------- helpers

const count = (page: Page, selector: string) => page.locator(selector).count();

/** Slows the page's uploads so the progress can be seen (bytes per second). */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return () => cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

/** Clones through the API and waits until the avatar is ready. */
async function readyAvatar(client: ApiTestClient, name: string, file: string): Promise<Avatar> {
  const registered = await uploadFile(client, 'video', file);
  if (registered.code !== 0) throw new Error(`upload: ${registered.msg}`);
  const { id } = await ok<{ id: number }>(client, API.avatars.clone, { name, file_id: registered.data.file_id });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const list = (await ok<{ list: Avatar[] }>(client, API.avatars.list, { source: 1, page: 1, limit: 100 })).list;
    const avatar = list.find((a) => a.id === id);
    if (avatar?.status === 3) return avatar;
    if (avatar?.status === 4 || Date.now() > deadline) throw new Error(`clone ${name} did not finish: ${JSON.stringify(avatar)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every element of the open panels stays inside the viewport's width; no panel scroller is wider than itself. */
const overflowing = (page: Page) => horizontalOverflow(page, '.av-page, .wk-page, .mt-page', '.dock-panel *, .bp6-dialog *');

// ---------------------------------------------------------------------------------------------------------------- journeys

describe('the upload component (materials page)', () => {
  it('shows the progress, then 上传成功, and the upload is a material', async () => {
    const { page, context } = await loggedInPage(USERS.upload, '/material/index?type=video');
    await page.waitForSelector('[data-testid=material-empty]');
    await page.click('[data-testid=material-upload-open]');
    await page.waitForSelector('[data-testid=material-upload] [data-testid=upload-zone]');
    const size = fs.statSync(landscapeVideo).size;
    const unthrottle = await throttleUploads(page, Math.max(16 * 1024, Math.floor(size / 6)));
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', landscapeVideo);
    // The overlay shows the file and a percent that moves.
    await page.waitForSelector('[data-testid=upload-progress]');
    expect(await page.textContent('.upload-overlay-name')).toBe('landscape.mp4');
    await page.waitForFunction(() => /上传中 ([1-9]\d?)%/.test(document.querySelector('[data-testid=upload-percent]')?.textContent ?? ''));
    await unthrottle();
    await toast(page, MSG.uploadSucceeded);
    await page.waitForSelector('[data-testid=upload-item][data-phase=done]');
    expect(await count(page, '[data-testid=upload-progress]')).toBe(0);
    await page.click('[data-testid=material-upload-done]');
    // The library lists it under 全部 and 我上传的, named after the file.
    await page.waitForSelector('[data-testid=material-card] >> text=landscape');
    await page.click('[data-testid=material-source] >> text=我上传的');
    await page.waitForFunction(() => location.hash.includes('source=1'));
    await page.waitForSelector('[data-testid=material-card] >> text=landscape');
    await page.click('[data-testid=material-source] >> text=工具保存');
    await page.waitForSelector('[data-testid=material-empty]');
    await context.close();
  });

  it('shows the server message for a PNG renamed .mp4 and clears the list', async () => {
    const { page, context } = await loggedInPage(USERS.upload, '/material/index?type=video');
    await page.click('[data-testid=material-upload-open]');
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', { name: 'fake.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(png) });
    await toast(page, MSG.avatarVideoInvalid);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=upload-item]').length === 0);
    expect(await count(page, '[data-testid=upload-progress]')).toBe(0);
    // An empty file and a text file named .mp4 say what is wrong with them, and nothing is sent.
    const signs: string[] = [];
    page.on('request', (r) => r.url().includes('/api/upload/sign') && signs.push(r.url()));
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', { name: 'empty.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(0) });
    await toast(page, MSG.fileEmpty);
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', { name: 'notes.mp4', mimeType: 'video/mp4', buffer: Buffer.from('这只是一段文字，不是视频。') });
    await toast(page, MSG.fileUnrecognized('video'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=upload-item]').length === 0);
    expect(signs).toEqual([]);
    await context.close();
  });

  it('refuses a file the client check refuses without sending it, and cancels an upload in flight', async () => {
    const { page, context } = await loggedInPage(USERS.upload, '/material/index?type=audio');
    const signs: string[] = [];
    page.on('request', (r) => r.url().includes('/api/upload/sign') && signs.push(r.url()));
    await page.click('[data-testid=material-upload-open]');
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', { name: 'voice.ogg', mimeType: 'audio/ogg', buffer: Buffer.from('OggS') });
    await toast(page, MSG.audioInvalid);
    expect(signs).toEqual([]);
    expect(await count(page, '[data-testid=upload-item]')).toBe(0);

    const before = (await ok<{ list: unknown[] }>(await apiClient(USERS.upload), API.material.list, { page: 1, limit: 100, type: 'audio', source: 0 })).list.length;
    await throttleUploads(page, 4 * 1024);
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', mp3);
    await page.waitForFunction(() => /上传中/.test(document.querySelector('[data-testid=upload-percent]')?.textContent ?? ''));
    // Leaving now would lose the upload: the page asks first (it cancels beforeunload), and stops asking once none runs.
    const leaveAsks = () => page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })));
    expect(await leaveAsks()).toBe(true);
    await page.click('[data-testid=upload-cancel]');
    await toast(page, MSG.uploadCancelled);
    expect(await count(page, '[data-testid=upload-item]')).toBe(0);
    expect(await count(page, '[data-testid=upload-progress]')).toBe(0);
    const after = (await ok<{ list: unknown[] }>(await apiClient(USERS.upload), API.material.list, { page: 1, limit: 100, type: 'audio', source: 0 })).list.length;
    expect(after).toBe(before);
    expect(await leaveAsks()).toBe(false);
    await context.close();
  });
});

describe('/profile: my avatars', () => {
  it('clones an avatar from a real video: consent, name, upload, preview, re-upload, start; it becomes ready', async () => {
    const { page, context } = await loggedInPage(USERS.clone, '/profile');
    await page.waitForSelector('[data-testid=avatar-empty]');
    await page.click('[data-testid=empty-clone]');

    // The commitment dialog: the consent is required; the link goes to the clone usage rules.
    await page.waitForSelector('.av-consent-dialog');
    expect(await page.getAttribute('.av-consent-dialog a', 'href')).toBe('#/protocol?type=clone');
    await page.click('[data-testid=clone-consent-next]');
    await toast(page, MSG.cloneConsentRequired);
    await tick(page, '.av-consent-check');
    await page.click('[data-testid=clone-consent-next]');

    // The clone dialog: requirements, the engine note, the name then the video are required.
    await page.waitForSelector('.av-clone-dialog');
    const requirements = await page.textContent('[data-testid=clone-requirements]');
    for (const part of ['横屏或竖屏', '5 秒 ~ 30 分钟', '360p ~ 4K', '500MB', 'HDR', 'MP4 / MOV']) expect(requirements).toContain(part);
    expect(await page.textContent('[data-testid=clone-engine-note]')).toContain(MSG.lipSyncSummary);
    // A wrong format is refused before upload; a real video uploads and shows its preview; 重新上传 starts over.
    await cloneDialogRefusals(page, {
      prefix: 'clone-', name: '我的口播分身', nameRequired: MSG.avatarNameRequired, fileRequired: MSG.avatarVideoRequired,
      wrongFile: { name: 'clip.avi', mimeType: 'video/x-msvideo', buffer: Buffer.from('RIFF') }, wrongFileRefused: MSG.avatarVideoInvalid,
    });
    await page.setInputFiles('[data-testid=clone-upload] [data-testid=upload-input]', landscapeVideo);
    await page.waitForSelector('[data-testid=clone-preview-video]');
    await page.click('[data-testid=clone-reupload]');
    await page.waitForSelector('[data-testid=clone-upload] [data-testid=upload-zone]');
    await page.setInputFiles('[data-testid=clone-upload] [data-testid=upload-input]', portraitVideo);
    await page.waitForSelector('[data-testid=clone-preview-video]');
    expect(await page.getAttribute('[data-testid=clone-preview-video]', 'src')).toMatch(/^\/storage\/\d+\/[0-9a-f-]{36}\.mp4\?/);
    expect(await page.textContent('[data-testid=clone-preview]')).toContain('竖屏口播.mp4');

    await pastQuickThrottle(page);
    await page.click('[data-testid=clone-start]');
    // Submitted, not done: it says so, and says again when the clone has ended.
    await toast(page, MSG.cloneSubmitted);
    await page.waitForSelector('.av-clone-dialog', { state: 'detached' });
    const card = page.locator('[data-testid=avatar-card]', { hasText: '我的口播分身' });
    await card.waitFor();
    // The list polls while the avatar clones, and shows it ready.
    await page.waitForSelector('[data-testid=avatar-card][data-status="3"]', { timeout: 60_000 });
    await toast(page, MSG.avatarCloneReady('我的口播分身'));
    expect(await count(page, '[data-testid=avatar-card]')).toBe(1);
    expect(await count(page, '[data-testid=avatar-cloning]')).toBe(0);
    await context.close();
  });

  it('searches, plays, opens 高级创作 and deletes with a confirmation', async () => {
    const client = await apiClient(USERS.clone);
    const avatar = (await ok<{ list: Avatar[] }>(client, API.avatars.list, { source: 1, page: 1, limit: 100 })).list[0]!;
    const { page, context } = await loggedInPage(USERS.clone, '/profile');
    const card = `[data-testid=avatar-card][data-id="${avatar.id}"]`;
    await page.waitForSelector(card);
    expect(await page.textContent(`${card} .av-badges`)).toContain('竖屏');

    await page.fill('input[data-testid=avatar-search]', '没有这个名字');
    await page.waitForSelector('[data-testid=avatar-no-match]');
    await page.fill('input[data-testid=avatar-search]', '口播');
    await page.waitForSelector(card);

    // Hover action 高级创作 → /create with the avatar and its orientation.
    await page.hover(`${card} .av-cover`);
    await page.click(`${card} [data-testid=avatar-create]`);
    await page.waitForFunction(() => location.hash.startsWith('#/create'));
    expect(hashPath(page)).toBe(`/create?id=${avatar.id}&hs=2`);

    // Click → the player, which has 高级创作 too.
    await page.click('.nav-item[data-nav-id="profile"]');
    await page.click(`${card} .av-cover`);
    await page.waitForSelector('[data-testid=avatar-video]');
    // Signed urls are made per listing: the object is the same.
    expect((await page.getAttribute('[data-testid=avatar-video]', 'src'))?.split('?')[0]).toBe(avatar.url.split('?')[0]);
    await page.click('[data-testid=player-create]');
    await page.waitForFunction(() => location.hash.startsWith('#/create'));
    await page.click('.nav-item[data-nav-id="profile"]');

    // Delete: cancel first, then confirm.
    await page.hover(`${card} .av-cover`);
    await page.click(`${card} [data-testid=avatar-delete]`);
    await page.click('.bp6-alert button >> text=取消');
    await toast(page, MSG.deleteCancelled);
    expect(await count(page, card)).toBe(1);
    await page.hover(`${card} .av-cover`);
    await page.click(`${card} [data-testid=avatar-delete]`);
    await page.click('.bp6-alert button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector('[data-testid=avatar-no-match]');
    await page.fill('input[data-testid=avatar-search]', '');
    await page.waitForSelector('[data-testid=avatar-empty]');
    expect((await ok<{ list: Avatar[] }>(client, API.avatars.list, { source: 1, page: 1, limit: 100 })).list).toEqual([]);
    await context.close();
  });

  it('opens the clone flow from the palette', async () => {
    const { page, context } = await loggedInPage(USERS.clone, '/home');
    await runCommand(page, '克隆数字人', 'avatars.clone');
    await page.waitForSelector('.av-consent-dialog');
    expect(hashPath(page)).toBe('/profile');
    await context.close();
  });
});

describe('/gProfile: public avatars', () => {
  it('lists public avatars with search, play and 高级创作, no delete; 用户购买数字人 is coming soon', async () => {
    const { page, context } = await loggedInPage(USERS.clone, '/gProfile');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=avatar-card]').length === 2);
    expect(await count(page, '[data-testid=avatar-delete]')).toBe(0);
    await page.fill('input[data-testid=avatar-search]', '横屏');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=avatar-card]').length === 1);
    const id = await page.getAttribute('[data-testid=avatar-card]', 'data-id');
    await page.click('[data-testid=avatar-card] [data-testid=avatar-play]');
    await page.waitForSelector('[data-testid=avatar-video]');
    await page.click('[data-testid=player-create]');
    await page.waitForFunction(() => location.hash.startsWith('#/create'));
    expect(hashPath(page)).toBe(`/create?id=${id}&hs=1`);
    await page.click('.nav-item[data-nav-id="gProfile"]');
    await page.click('[data-testid=tab-bought]');
    await page.waitForSelector('[data-testid=bought-soon] >> text=即将上线');
    await context.close();
  });
});

describe('/works', () => {
  let client: ApiTestClient;
  let avatar: Avatar;

  beforeAll(async () => {
    client = await apiClient(USERS.works);
    avatar = await readyAvatar(client, '作品用分身', portraitVideo);
  });

  it('shows both levels of tabs with counts, the query picks the tab, and the empty state leads to creation', async () => {
    const { page, context } = await loggedInPage(USERS.works, '/works');
    await page.waitForSelector('[data-testid=works-empty]');
    expect(await page.textContent('[data-testid=works-tab-avatar]')).toContain('数字人视频');
    for (const key of ['avatar', 'pet', 'photo']) await page.waitForSelector(`[data-testid=works-count-${key}] >> text=0`);
    expect(await page.getAttribute('[data-testid=works-tab-avatar]', 'aria-selected')).toBe('true');

    await page.click('[data-testid=works-tab-pet]');
    await page.waitForFunction(() => location.hash === '#/works?type1=0&type2=2');
    await page.waitForSelector('[data-testid=works-empty] >> text=暂无宠物视频');

    await page.evaluate(() => (location.hash = '#/works?type1=1&type2=2'));
    await page.waitForSelector('[data-testid=works-tab-multiAudio][aria-selected=true]');
    expect(await page.textContent('[data-testid=works-tab-multiVideo]')).toContain('多场景视频');
    await page.waitForSelector('[data-testid=works-empty] >> text=暂无多场景音频');

    await page.click('[data-testid=works-level-0]');
    await page.waitForSelector('[data-testid=works-tab-avatar][aria-selected=true]');
    await page.click('[data-testid=works-create]');
    await page.waitForFunction(() => location.hash === '#/create');
    await context.close();
  });

  it('shows a work waiting with its channel message, then playable; downloads, renames and deletes it', async () => {
    const { page, context } = await loggedInPage(USERS.works, '/works');
    await page.waitForSelector('[data-testid=works-empty]');
    // Three minutes of audio keep the render busy for a few seconds: long enough to see the work waiting.
    const long = await uploadFile(client, 'voice', makeAudio(path.join(dir, 'long.mp3'), { seconds: 180 }));
    const { id } = await ok<{ id: number }>(client, API.works.create, { name: '本地口播一号', api: 'local', drive: 'audio', video_id: avatar.id, voice_id: long.data.file_id });
    await page.click('[data-testid=works-refresh]');
    const card = `[data-testid=work-card][data-id="${id}"]`;
    await page.waitForSelector(card);
    await page.waitForSelector(`${card} [data-testid=work-waiting] >> text=本地合成中`);
    await page.waitForSelector('[data-testid=works-polling]');
    expect(await count(page, `${card} [data-testid=work-download]`)).toBe(0);
    expect(await page.textContent(`${card} [data-testid=work-local-note]`)).toContain(MSG.localEngineNote);
    // The list polls while a work is in progress (every 15 s; LIST_POLL_MS here): the card turns playable on its own.
    await page.waitForSelector(`${card}[data-status="3"]`, { timeout: 45_000 });
    await page.waitForSelector('[data-testid=works-polling]', { state: 'detached' });
    await page.waitForSelector('[data-testid=works-count-avatar] >> text=1');

    // Play: the player's total reads as the card's length (one rounding rule for both).
    const cardLength = await page.innerText(`${card} .wk-duration`);
    expect(cardLength).toMatch(/^\d\d:\d\d$/);
    await page.click(`${card} [data-testid=work-cover]`);
    await page.waitForSelector('[data-testid=work-video]');
    expect(await page.getAttribute('[data-testid=work-video]', 'src')).toMatch(/^\/storage\/\d+\/[0-9a-f-]{36}\.mp4\?/);
    await page.waitForFunction(() => document.querySelector('.wk-player-dialog [data-testid=video-duration]')?.textContent !== '--:--');
    expect(await page.innerText('.wk-player-dialog [data-testid=video-duration]')).toBe(cardLength);
    await escapeDialog(page);
    await page.waitForSelector('.wk-player-dialog', { state: 'detached' });

    // Download through the progress dialog.
    await downloadWork(page, card, '本地口播一号', path.join(dir, 'downloaded.mp4'));

    // Rename: an empty name is refused.
    await page.click(`${card} [data-testid=work-rename]`);
    await renameInDialog(page, '', '改名后的口播', { blank: '  ' });
    await page.waitForSelector(`${card} [data-testid=work-name] >> text=改名后的口播`);

    // Permanent delete asks first.
    await page.click(`${card} [data-testid=work-delete]`);
    await page.click('.bp6-alert button >> text=取消');
    await toast(page, MSG.deleteCancelled);
    await page.click(`${card} [data-testid=work-delete]`);
    await page.click('.bp6-alert button >> text=永久删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector('[data-testid=works-empty]');
    await page.waitForSelector('[data-testid=works-count-avatar] >> text=0');
    await context.close();
  });

  it('refreshes from the palette', async () => {
    const { page, context } = await loggedInPage(USERS.works, '/home');
    await runCommand(page, '刷新作品列表', 'works.refresh');
    await page.waitForSelector('.dock-panel[data-route="/works"] [data-testid=works-panel]');
    await context.close();
  });
});

describe('/material/index', () => {
  it('has the four tabs and the source filter; previews, renames and deletes a saved text', async () => {
    const client = await apiClient(USERS.material);
    await ok(client, API.material.saveText, { name: '开场白文案', text: '大家好，欢迎来到直播间。\n今天给大家带来新品。' });
    const { page, context } = await loggedInPage(USERS.material, '/material/index');
    await page.waitForSelector('[data-testid=material-empty] >> text=暂无视频素材');
    for (const [type, title] of [['audio', '暂无音频素材'], ['image', '暂无图片素材']] as const) {
      await page.click(`[data-testid=material-tab-${type}]`);
      await page.waitForFunction((t) => location.hash.includes(`type=${t}`), type);
      await page.waitForSelector(`[data-testid=material-empty] >> text=${title}`);
    }
    await page.click('[data-testid=material-tab-text]');
    await page.waitForSelector('[data-testid=material-card] >> text=开场白文案');
    expect(await count(page, '[data-testid=material-upload-open]')).toBe(0);
    await page.click('[data-testid=material-source] >> text=我上传的');
    await page.waitForSelector('[data-testid=material-empty]');
    await page.click('[data-testid=material-source] >> text=工具保存');
    await page.waitForSelector('[data-testid=material-card] >> text=开场白文案');
    expect(await page.textContent('[data-testid=material-card]')).toContain('文案火花');

    await page.click('[data-testid=material-open]');
    await page.waitForSelector('[data-testid=material-text] >> text=今天给大家带来新品');
    await escapeDialog(page);

    await page.click('[data-testid=material-rename]');
    await renameInDialog(page, 'material-', '直播开场', { blank: '' });
    await page.waitForSelector('[data-testid=material-card] >> text=直播开场');

    await page.click('[data-testid=material-delete]');
    await page.click('.bp6-alert button >> text=取消');
    await toast(page, MSG.deleteCancelled);
    await page.click('[data-testid=material-delete]');
    await page.click('.bp6-alert button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForSelector('[data-testid=material-empty]');
    await context.close();
  });

  /** Uploads `file` with the upload dialog, waits for its card (`name`) and opens it. */
  async function uploadAndOpen(page: Page, file: string, name: string) {
    await page.click('[data-testid=material-upload-open]');
    await page.setInputFiles('[data-testid=material-upload] [data-testid=upload-input]', file);
    await page.waitForSelector('[data-testid=material-upload] [data-testid=upload-item][data-phase=done]');
    await page.click('[data-testid=material-upload-done]');
    await page.waitForSelector(`[data-testid=material-card] >> text=${name}`);
    await page.click('[data-testid=material-open]');
  }

  it('uploads audio and images into their tabs and plays them', async () => {
    const { page, context } = await loggedInPage(USERS.material, '/material/index?type=audio');
    await uploadAndOpen(page, mp3, 'speech');
    await page.waitForSelector('[data-testid=material-audio]');
    await escapeDialog(page);

    await page.click('[data-testid=material-tab-image]');
    await uploadAndOpen(page, png, 'cover');
    await page.waitForSelector('[data-testid=material-image]');
    await context.close();
  });
});

describe('phone 390x844', () => {
  it('has no horizontal overflow on /profile, the clone dialog, /gProfile, /works and /material/index', async () => {
    const client = await apiClient(USERS.phone);
    const avatar = await readyAvatar(client, '手机上的分身', landscapeVideo);
    const audio = await uploadFile(client, 'voice', mp3);
    await ok(client, API.works.create, { name: '手机端作品名称比较长的一个作品', api: 'local', drive: 'audio', video_id: avatar.id, voice_id: audio.data.file_id });
    await ok(client, API.material.saveText, { name: '手机文案', text: '一段用于手机端检查的文本素材。' });

    const { page, context } = await loggedInPage(USERS.phone, '/profile', { viewport: PHONE_VIEWPORT });
    await page.waitForSelector('[data-testid=avatar-card]');
    expect(await overflowing(page)).toEqual([]);
    await page.click('[data-testid=clone-open]');
    await tick(page, '.av-consent-check');
    await page.click('[data-testid=clone-consent-next]');
    await page.waitForSelector('.av-clone-dialog [data-testid=upload-zone]');
    await settled(page, '.dock-panel *, .bp6-dialog *');
    expect(await overflowing(page)).toEqual([]);
    await escapeDialog(page);

    for (const [route, ready] of [
      ['/gProfile', '[data-testid=avatar-card]'],
      ['/works', '[data-testid=work-card]'],
      ['/material/index?type=text', '[data-testid=material-card]'],
    ] as const) {
      await page.evaluate((r) => (location.hash = `#${r}`), route);
      await page.waitForSelector(`.dock-panel[data-route="${route.split('?')[0]}"] ${ready}`);
      await settled(page, '.dock-panel *, .bp6-dialog *');
      expect(await overflowing(page), route).toEqual([]);
    }
    await context.close();
  });
});
