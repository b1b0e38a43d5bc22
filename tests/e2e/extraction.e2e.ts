/**
 * Video and audio extraction (part 2 §2.5, §2.6) against the real server, with the parse engine set by the operator
 * CLI to a loopback peer of the Douyin/TikTok hybrid API and a media host as the CDN: a pasted share text becomes a
 * record that goes from processing to done (the free count first), is downloaded as a playable video and saved to
 * assets, where /material/index shows it; with no engine configured, audio is extracted from an uploaded mp4 and
 * downloaded as an mp3; screenshots in both themes and on a phone (into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import { PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { toast, useJourney } from '../support/journey';
import { makeVideo, mediaDir as newMediaDir } from '../support/media';
import { startHybridPeer, startMediaHost, type MediaHost, type ParsePeer } from '../support/peers/parse-peers';

const USERNAME = '13800009501';
const shoot = screenshots('extraction');
const SHARE_LINK = 'https://v.douyin.com/iRNBho6u/';
const DESC = '周末去海边看日落，风很大但是很开心 #旅行 #日落';

let host: MediaHost;
let hybrid: ParsePeer;
const env: Record<string, string> = {};
const dir = newMediaDir();
const clip = makeVideo(path.join(dir, 'sunset.mp4'), { seconds: 5 });

// Before the server starts: the media host's port is the one loopback port its guarded fetcher may reach.
beforeAll(async () => {
  [host, hybrid] = await Promise.all([startMediaHost(), startHybridPeer()]);
  env.AISA_TEST_FETCH_LOOPBACK_PORTS = String(host.port);
  host.serve('/aweme/v1/play/sunset.mp4', clip);
  // A little slow, as a real engine is, so the record is seen processing first.
  hybrid.posts.set(SHARE_LINK, { desc: DESC, videoUrl: `${host.url}/aweme/v1/play/sunset.mp4`, slowMs: 1500 });
});
const { server, loggedInPage, operator } = useJourney({ users: { [USERNAME]: 100 }, env });
afterAll(async () => {
  await Promise.all([host?.close(), hybrid?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const row = (page: Page, status: number) => page.waitForSelector(`[data-testid=extraction-row][data-status="${status}"]`, { timeout: 30_000 });

async function downloadFrom(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=extraction-row][data-status="3"] [data-testid=extraction-download]')]);
  const file = path.join(dir, name);
  await download.saveAs(file);
  return file;
}

describe('extraction', () => {
  it('parses a pasted share text, shows it processing then done, downloads it and saves it to assets', { timeout: 90_000 }, async () => {
    await server.admin('site', 'set', 'parse_engine=hybrid', `parse_base_url=${hybrid.url}`, 'extraction_free_daily=1');
    const { page, context } = await loggedInPage(USERNAME, '/store/extraction');
    await page.waitForSelector('[data-testid=extraction-free] >> text=今日免费 1 次');
    // A parser is configured: no word about it missing.
    expect(await page.locator('[data-testid=extraction-no-parser]').count()).toBe(0);

    // Nothing to parse: said at once, nothing sent.
    await page.fill('[data-testid=extraction-link]', '只有文字');
    await page.click('[data-testid=extraction-start]');
    await toast(page, MSG.extractionLinkMissing);

    await page.fill('[data-testid=extraction-link]', `7.43 复制打开抖音，看看【小海的作品】${DESC} ${SHARE_LINK} PbT:/ 04/12`);
    await page.click('[data-testid=extraction-start]');
    await toast(page, MSG.submitSucceeded);
    await row(page, 1);
    await page.click('[data-testid=extraction-tab-processing]');
    await row(page, 1);
    await page.click('[data-testid=extraction-tab-all]');
    const done = await row(page, 3);
    expect(await done.textContent()).toContain(DESC.slice(0, 10));
    expect(await page.$('[data-testid=extraction-free]')).toBeNull();
    expect(hybrid.requests.map((r) => r.link)).toEqual([SHARE_LINK]);

    const file = await downloadFrom(page, 'downloaded.mp4');
    const info = await probe(file, 'mp4');
    expect(info.video?.codec).toBe('h264');
    expect(Math.abs(info.duration - 5)).toBeLessThan(0.3);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=extraction-row][data-status="3"] .ex-cover img');
      return !!img && img.complete && img.naturalWidth > 0;
    });

    await page.click('[data-testid=extraction-row][data-status="3"] [data-testid=extraction-save]');
    await toast(page, MSG.savedToMaterial);
    const name = [...DESC].slice(0, LIMITS.analyseNameMaxChars).join('');
    await page.evaluate(() => (location.hash = '#/material/index'));
    await page.waitForSelector('[data-testid=material-panel]');
    await page.click('[data-testid=material-tab-video]');
    await page.waitForSelector(`[data-testid=material-card] >> text=${name}`);
    await context.close();
  });

  it('extracts the sound of an uploaded mp4 with no engine configured', { timeout: 90_000 }, async () => {
    await operator(API.admin.siteSet, { settings: { parse_engine: 'none' } });
    const { page, context } = await loggedInPage(USERNAME, '/store/audioExtraction');
    // No parser: said up front, before any link is pasted (direct media links still work).
    expect(await page.textContent('[data-testid=extraction-no-parser]')).toBe(MSG.parseLinksOffline);
    await page.click('[data-testid=extraction-way] >> text=本地上传');
    await page.setInputFiles('[data-testid=extraction-upload] input[type=file]', clip);
    await page.waitForSelector('[data-testid=extraction-start]:not([disabled])', { timeout: 30_000 });
    await page.click('[data-testid=extraction-start]');
    await toast(page, MSG.submitSucceeded);
    await row(page, 3);
    const mp3 = await downloadFrom(page, 'sound.mp3');
    const info = await probe(mp3, 'mp3');
    expect(info.audio?.codec).toBe('mp3');
    expect(info.video).toBeUndefined();
    await context.close();
  });

  it('looks right in both themes and on a phone', { timeout: 90_000 }, async () => {
    const shots: [string, string, Parameters<typeof loggedInPage>[2]][] = [
      ['video-light-desktop', '/store/extraction', { theme: 'light' }],
      ['video-dark-desktop', '/store/extraction', { theme: 'dark' }],
      ['audio-dark-phone', '/store/audioExtraction', { theme: 'dark', viewport: PHONE_VIEWPORT }],
      ['video-light-phone', '/store/extraction', { theme: 'light', viewport: PHONE_VIEWPORT }],
    ];
    for (const [name, route, options] of shots) {
      const { page, context } = await loggedInPage(USERNAME, route, options);
      await page.waitForSelector('[data-testid=extraction-row]');
      // Icons load on demand: every one drawn before the shot.
      await page.waitForFunction(() => [...document.querySelectorAll('.ex-page .bp6-icon')].every((el) => el.querySelector('svg')));
      if (options?.viewport) expect(await horizontalOverflow(page, '.ex-page', '.ex-page *')).toEqual([]);
      await shoot(page, `${name}`);
      await context.close();
    }
  });
});
