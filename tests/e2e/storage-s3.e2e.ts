/**
 * The product on S3 storage in a real browser: the server's objects live in a bucket on an S3 protocol peer
 * (path-style, another origin than the app's), pages read them through presigned GETs and upload straight to the
 * bucket. Every page of this journey must load and upload under the server's own Content-Security-Policy.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG, type Avatar, type Work } from '../../src/contract';
import { escapeDialog, QUICK_THROTTLES, pastQuickThrottle, tick } from '../support/browser';
import { downloadWork, okCall as ok, toast, useJourney } from '../support/journey';
import { makeAudio, makeImage, makeVideo } from '../support/media';
import { startS3Peer, type S3Peer } from '../support/peers/s3-peer';
import { uploadFile } from '../support/upload';

const USERNAME = '13800000021';
const env: Record<string, string> = {};
let peer: S3Peer;
// Before useJourney's own hook, so the server starts on this bucket; stopped after the server (hooks unwind).
beforeAll(async () => {
  peer = await startS3Peer();
  Object.assign(env, peer.env);
});
afterAll(() => peer?.stop());

// Throttles and the avatar list's poll shortened: the clone is seen getting ready without sleeping through them.
const journey = useJourney({ users: [USERNAME], credits: 10_000, env, timings: { ...QUICK_THROTTLES, avatarPollMs: 1000 } });
let dir: string;
let portraitVideo: string;

beforeAll(async () => {
  dir = journey.mediaDir();
  portraitVideo = makeVideo(path.join(dir, '竖屏口播.mp4'), { width: 360, height: 640, seconds: 5 });
  const cover = makeImage(path.join(dir, 'cover.png'), { width: 360, height: 640 });
  await journey.operator(API.admin.publicAvatarAdd, { name: '桶里的主播', orientation: 2, video: portraitVideo, cover });
});

/**
 * A logged-in page that records what the policy refuses and what the bucket answers; `done()` asserts that nothing
 * was refused and closes it.
 */
async function bucketPage(route: string) {
  const { page, context } = await journey.loggedInPage(USERNAME, route);
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
  });
  // The login above happened before the recorder existed: load the route once more with it.
  await page.reload();
  await page.waitForSelector(`.dock-panel[data-route="${route}"]`);
  const fromBucket: { method: string; status: number; url: string }[] = [];
  page.on('response', (res) => {
    if (res.url().startsWith(peer.endpoint)) fromBucket.push({ method: res.request().method(), status: res.status(), url: res.url() });
  });
  return {
    page,
    fromBucket,
    async done() {
      expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
      await context.close();
    },
  };
}

/** Waits until the media element matched by `selector` has its first frame (the bytes really came). */
const mediaLoaded = (page: Page, selector: string) =>
  page.waitForFunction((s) => ((document.querySelector(s) as HTMLMediaElement | null)?.readyState ?? 0) >= 2, selector, { timeout: 20_000 });

/** Seeks the media element to `seconds` and waits for the seek to finish (a Range request the bucket answers). */
const seek = (page: Page, selector: string, seconds: number) =>
  page.evaluate(
    ([s, t]) =>
      new Promise<number>((resolve, reject) => {
        const media = document.querySelector(s as string) as HTMLMediaElement;
        media.addEventListener('seeked', () => resolve(media.currentTime), { once: true });
        media.addEventListener('error', () => reject(new Error(`media error ${media.error?.code}`)), { once: true });
        media.currentTime = t as number;
      }),
    [selector, seconds] as const,
  );

describe('on S3 storage, in the browser', () => {
  it('/home shows a published avatar’s cover from the bucket and plays its video there', async () => {
    const { page, fromBucket, done } = await bucketPage('/home');
    const card = page.locator('[data-testid=avatar-card]', { hasText: '桶里的主播' });
    await card.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid=avatar-card] img') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await card.hover();
    await card.locator('[data-testid=avatar-play]').click();
    await mediaLoaded(page, '.bp6-dialog [data-testid=avatar-video]');
    expect(await seek(page, '.bp6-dialog [data-testid=avatar-video]', 3)).toBeGreaterThan(2.5);
    // Both came from the bucket (our /storage URL redirected there); the video by ranges.
    expect(fromBucket.some((r) => r.method === 'GET' && r.status === 200 && /\.(jpg|png)\?/.test(r.url))).toBe(true);
    expect(fromBucket.some((r) => r.status === 206 && /\.mp4\?/.test(r.url))).toBe(true);
    await done();
  });

  it('clones an avatar through the browser: the upload goes to the bucket, the preview plays from it, the clone gets ready', async () => {
    const { page, fromBucket, done } = await bucketPage('/profile');
    await page.click('[data-testid=empty-clone]');
    await tick(page, '.av-consent-check');
    await page.click('[data-testid=clone-consent-next]');
    await page.waitForSelector('.av-clone-dialog');
    await page.fill('[data-testid=clone-name]', '桶里的分身');
    await page.setInputFiles('[data-testid=clone-upload] [data-testid=upload-input]', portraitVideo);
    await mediaLoaded(page, '[data-testid=clone-preview-video]');
    expect(fromBucket.some((r) => r.method === 'POST' && r.status === 200)).toBe(true);
    await pastQuickThrottle(page);
    await page.click('[data-testid=clone-start]');
    await toast(page, MSG.cloneSubmitted);
    await page.waitForSelector('[data-testid=avatar-card][data-status="3"]', { timeout: 60_000 });
    await done();
  });

  it('/works plays a finished work from the bucket, seeks in it and downloads it', async () => {
    const client = await journey.apiClient(USERNAME);
    const avatar = (await ok<{ list: Avatar[] }>(client, API.avatars.list, { source: 1, page: 1, limit: 10 })).list.find((a) => a.name === '桶里的分身');
    expect(avatar?.status).toBe(3);
    const audio = await uploadFile(client, 'voice', makeAudio(path.join(dir, 'speech.mp3'), { seconds: 5 }));
    const { id } = await ok<{ id: number }>(client, API.works.create, { name: '桶里的作品', api: 'local', drive: 'audio', video_id: avatar!.id, voice_id: audio.data.file_id });
    for (const deadline = Date.now() + 60_000; ; ) {
      const work = (await ok<{ list: Work[] }>(client, API.works.list, { page: 1, limit: 10 })).list.find((w) => w.id === id);
      if (work?.status === 3) break;
      if (work?.status === 4 || Date.now() > deadline) throw new Error(`work did not finish: ${JSON.stringify(work)}`);
      await new Promise((r) => setTimeout(r, 300));
    }

    const { page, fromBucket, done } = await bucketPage('/works');
    const card = `[data-testid=work-card][data-id="${id}"]`;
    await page.waitForSelector(`${card}[data-status="3"]`);
    await page.click(`${card} [data-testid=work-cover]`);
    await mediaLoaded(page, '[data-testid=work-video]');
    expect(await seek(page, '[data-testid=work-video]', 4)).toBeGreaterThan(3.5);
    expect(fromBucket.some((r) => r.status === 206)).toBe(true);
    await escapeDialog(page);
    await page.waitForSelector('.wk-player-dialog', { state: 'detached' });

    await downloadWork(page, card, '桶里的作品', path.join(dir, 'downloaded.mp4'));
    await done();
  });
});
