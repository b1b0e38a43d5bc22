/**
 * Text to image (/store/wsImage) against a loopback peer speaking OpenAI's images API: without an engine the screen
 * says so and cannot generate; the operator sets one with the CLI; a suggested prompt, a ratio, a reference picture
 * and two pictures behind the price's confirm; the history record turns done, the carousel turns, download and save to
 * material (then on /material/index); a failed generation shows its reason and gives the credits back; choosing a
 * record refills the form; delete with confirmation. With SHOTS_DIR set, both themes at desktop and a phone.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { makeImage } from '../support/media';
import { startImagePeer, type ImagePeer } from '../support/peers/image-peer';
import { saysEngineMissing, toast, useJourney } from '../support/journey';

const USER = '13800009401';
const shoot = screenshots('imagegen');
const { server, loggedInPage, apiClient, mediaDir } = useJourney({ users: { [USER]: 1000 } });
let peer: ImagePeer;

beforeAll(async () => {
  peer = await startImagePeer();
});
afterAll(() => peer?.close());

const credits = async () => (await (await apiClient(USER)).call(API.account.credits, {})).data.credits as number;
const record = (state?: string) => `[data-testid=imagegen-record]${state ? `[data-state=${state}]` : ''}`;

/** The history refreshes every 15 s by itself; the journey asks with the 刷新 button instead of waiting that out. */
async function refreshUntil(page: Page, selector: string) {
  const end = Date.now() + 20_000;
  for (;;) {
    await page.click('[data-testid=imagegen-refresh]');
    try {
      return await page.waitForSelector(selector, { timeout: 1000 });
    } catch (err) {
      if (Date.now() > end) throw err;
    }
  }
}

async function generate(page: Page, count: number) {
  await page.click(`[data-testid=imagegen-count-${count}]`);
  expect(await page.innerText('[data-testid=imagegen-generate]')).toContain(`${count * LIMITS.imageCreditsEach} 积分`);
  // The button takes one click a second (the spec's throttle) and drops the rest, as a user would see: click again.
  const confirm = `.ig-confirm >> text=确认生成 ${count} 张图片？`;
  for (let tries = 0; ; tries++) {
    await page.click('[data-testid=imagegen-generate]');
    try {
      await page.waitForSelector(confirm, { timeout: 1500 });
      break;
    } catch (err) {
      if (tries >= 3) throw err;
    }
  }
  await page.click('.ig-confirm button:has-text("确认生成")');
  await toast(page, '已提交，图片生成后会显示在生成记录中');
}

describe('text to image', () => {
  it('says plainly when no image engine is configured, and generating is disabled', async () => {
    const { page, context } = await loggedInPage(USER, '/store/wsImage');
    await saysEngineMissing(page, 'imagegen-engine-missing', MSG.imageEngineMissing, 'imagegen-generate');
    await context.close();
    expect(await server.admin('image', 'set', '--engine', 'openai', '--base-url', peer.url, '--api-key', peer.apiKey)).toContain('image engine openai');
  });

  it('generates two pictures with a reference: carousel, download, save to material; a failure is refunded; refill and delete', async () => {
    const { page, context } = await loggedInPage(USER, '/store/wsImage');
    const before = await credits();
    await page.waitForSelector('[data-testid=imagegen-suggestion] >> nth=2');
    expect(await page.locator('[data-testid=imagegen-engine-missing]').count()).toBe(0);

    // An empty description is refused before any confirm.
    await page.click('[data-testid=imagegen-generate]');
    await toast(page, MSG.promptRequired);

    const suggestion = page.locator('[data-testid=imagegen-suggestion]').first();
    const suggested = await suggestion.innerText();
    await suggestion.click();
    expect(await page.inputValue('[data-testid=imagegen-text]')).toBe(suggested);
    await page.fill('[data-testid=imagegen-text]', '雪山脚下的湖泊与木屋，星空倒影');
    await page.click('[data-testid="imagegen-ratio-16:9"]');
    await page.setInputFiles('[data-testid=imagegen-reference] [data-testid=upload-input]', makeImage(path.join(mediaDir(), 'reference.png'), { width: 480, height: 360 }));
    await page.waitForSelector('[data-testid=imagegen-reference-chosen] img');

    peer.behave('openai', { kind: 'images' });
    await generate(page, 2);
    await page.waitForSelector(record());
    await refreshUntil(page, record('done'));
    expect(peer.requests.at(-1)).toMatchObject({ path: 'images/edits', body: { prompt: '雪山脚下的湖泊与木屋，星空倒影', size: '1536x1024' } });
    expect(await credits()).toBe(before - 2 * LIMITS.imageCreditsEach);

    // The carousel shows the new pictures and turns by itself every 2 s.
    await page.waitForSelector('[data-testid=imagegen-slide][data-index="0"]');
    expect(await page.locator('[data-testid=imagegen-dot]').count()).toBe(2);
    await page.mouse.move(0, 0);
    await page.waitForSelector('[data-testid=imagegen-slide][data-index="1"]', { timeout: LIMITS.carouselMs + 2000 });
    // The peer's real 320×240 PNG, served from our storage.
    await page.waitForFunction(() => (document.querySelector('[data-testid=imagegen-slide]') as HTMLImageElement | null)?.naturalWidth === 320);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=imagegen-download]')]);
    expect(download.suggestedFilename()).toMatch(/^雪山脚下的湖泊与木屋，星-\d\.png$/);
    await toast(page, MSG.downloadSucceededTool);
    await page.click('[data-testid=imagegen-save]');
    await toast(page, MSG.savedToMaterial);

    // A failed generation says why and costs nothing.
    peer.behave('openai', { kind: 'status', status: 400, message: 'Your request was rejected by the safety system' });
    await page.fill('[data-testid=imagegen-text]', '一张会被拒绝的图');
    await page.click('[data-testid=imagegen-reference-remove]');
    await generate(page, 1);
    const failed = await refreshUntil(page, record('failed'));
    expect(await failed.innerText()).toContain(MSG.imageEngineRejected);
    expect(await failed.$('[data-testid=imagegen-record-choose]')).toBeNull();
    expect(await credits()).toBe(before - 2 * LIMITS.imageCreditsEach);

    // Choosing the finished record refills the form with its settings.
    await page.click(`${record('done')} [data-testid=imagegen-record-choose]`);
    expect(await page.inputValue('[data-testid=imagegen-text]')).toBe('雪山脚下的湖泊与木屋，星空倒影');
    expect(await page.getAttribute('[data-testid="imagegen-ratio-16:9"]', 'aria-checked')).toBe('true');
    expect(await page.getAttribute('[data-testid=imagegen-count-2]', 'class')).toContain('bp6-active');
    await page.waitForSelector('[data-testid=imagegen-reference-chosen] img');

    // Delete the failed record, with confirmation.
    await page.click(`${record('failed')} [data-testid=imagegen-record-delete]`);
    await page.click('.ig-alert button:has-text("删除")');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=imagegen-record]').length === 1);

    await page.goto(`${server.url}/#/material/index?type=image`);
    await page.waitForSelector('[data-testid=material-list] >> text=雪山脚下的湖泊与木屋，星空倒影');
    await context.close();
  });

  it('fits a phone and both themes', async () => {
    for (const [theme, phone] of [['dark', false], ['light', false], ['dark', true]] as const) {
      const { page, context } = await loggedInPage(USER, '/store/wsImage', { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      await page.waitForSelector('[data-testid=imagegen-slide]');
      await page.waitForSelector('[data-testid=imagegen-suggestion]');
      await page.waitForFunction(() => ((document.querySelector('[data-testid=imagegen-slide]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
      if (phone) expect(await horizontalOverflow(page, '.ig-page', '.ig-page *:not(.ig-stage-bg)')).toEqual([]);
      // Each icon's paths load on its first use: shoot once every icon on the screen is drawn.
      await page.waitForFunction(() => [...document.querySelectorAll('.ig-page .bp6-icon')].every((el) => el.querySelector('svg')));
      await shoot(page, `imagegen-${theme}-${phone ? 'phone' : 'desktop'}`);
      if (phone) {
      await page.evaluate(() => document.querySelector('.ig-page')?.scrollTo({ top: 2000 }));
      await shoot(page, `imagegen-${theme}-phone-history`);
      }
      await context.close();
    }
  });
});
