/**
 * Copy extraction (/copywrite/index, /store/copywrite/trace) against the real server, the offline caption reader and
 * a loopback streaming chat peer: a pasted share text with a direct media link (a media host on loopback, the only
 * port the guarded fetcher may reach) becomes a record read from the captions on screen (来源：画面字幕), its copy
 * and timed sentences shown; edited in place; rewritten (二创, 种草) as a stream and the rewrite saved to the material
 * library; the copy taken to /create, where the editor holds it; the history re-opens and deletes it. With SHOTS_DIR
 * set, both screens in both themes at desktop and phone width.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { LOOKS, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { CAPTIONED_CLIP, makeSpokenCaptionedClip } from '../support/caption-media';
import { hashPath, toast, useJourney } from '../support/journey';
import { mediaDir as newMediaDir } from '../support/media';
import { startOpenAiPeer, type OpenAiPeer } from '../support/peers/openai-peer';
import { startMediaHost, type MediaHost } from '../support/peers/parse-peers';

const USER = '13800009801';
const shoot = screenshots('copywrite');
const REWRITTEN = '姐妹们！做数字人视频真的太简单了，一段素材就能克隆形象，声音口型全自动，赶紧码住！';

let host: MediaHost;
let chat: OpenAiPeer;
const env: Record<string, string> = {};
const dir = newMediaDir();

beforeAll(async () => {
  const clip = await makeSpokenCaptionedClip(path.join(dir, 'captions.mp4'));
  [host, chat] = await Promise.all([startMediaHost(), startOpenAiPeer()]);
  env.AISA_TEST_FETCH_LOOPBACK_PORTS = String(host.port);
  host.serve('/v/shuziren.mp4', clip);
}, 120_000);
const { server, loggedInPage, apiClient } = useJourney({ users: { [USER]: 200 }, env });
afterAll(async () => {
  await Promise.all([host?.close(), chat?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const credits = async () => (await (await apiClient(USER)).call(API.account.credits, {})).data.credits as number;
const result = (page: Page, status: number) => page.waitForSelector(`[data-testid=copywrite-result][data-status="${status}"]`, { timeout: 60_000 });

describe('copy extraction', () => {
  it('reads a pasted share text from its captions, edits, rewrites and saves it, and takes it to /create', { timeout: 180_000 }, async () => {
    await server.admin('site', 'set', `chat_base_url=${chat.url}`, `chat_api_key=${chat.apiKey}`);
    chat.behave({ kind: 'reply', text: REWRITTEN, chunkChars: 5, chunkDelayMs: 20 });
    const { page, context } = await loggedInPage(USER, '/copywrite/index');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.waitForSelector('[data-testid=copywrite-result] >> text=还没有文案');

    // Nothing to read: said at once, nothing sent.
    await page.fill('[data-testid=copywrite-link]', '复制打开抖音，看看这个作品');
    await page.click('[data-testid=copywrite-start]');
    await toast(page, MSG.extractionLinkMissing);

    await page.fill('[data-testid=copywrite-link]', `3.82 复制打开抖音，看看【小分身的作品】数字人入门 ${host.url}/v/shuziren.mp4 PbT:/ 05/20`);
    await page.click('[data-testid=copywrite-start]');
    await toast(page, MSG.submitSucceeded);
    await result(page, 3);
    expect(await page.textContent('[data-testid=copywrite-source]')).toBe('来源：画面字幕');
    const text = await page.innerText('[data-testid=copywrite-text]');
    // Most of each caption is there, in order, with punctuation; the watermark is not.
    expect(text).toContain('数字人视频');
    expect(text).toContain('克隆形象');
    expect(text).toContain('自动生成');
    expect(text).toContain('。');
    expect(text).not.toContain(CAPTIONED_CLIP.watermark);
    await page.click('[data-testid=copywrite-segments] summary');
    expect(await page.locator('[data-testid=copywrite-segment]').count()).toBe(CAPTIONED_CLIP.captions.length);
    expect(await page.innerText('[data-testid=copywrite-segment] >> nth=0')).toMatch(/^0:00\.\d – 0:0\d\.\d/);
    expect(await credits()).toBe(200 - LIMITS.copywrite.credits);

    await page.click('[data-testid=copywrite-copy]');
    await toast(page, MSG.copySucceeded);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

    // Edit in place.
    const edited = `${text}欢迎关注！`;
    await page.click('[data-testid=copywrite-edit]');
    await page.fill('[data-testid=copywrite-editor]', edited);
    await page.click('[data-testid=copywrite-edit-save]');
    await toast(page, MSG.saveSucceeded);
    await page.waitForSelector(`[data-testid=copywrite-text] >> text=欢迎关注！`);

    // 二创: 种草, streamed in, then saved to the material library.
    await page.click('[data-testid=copywrite-style-zhongcao]');
    await page.click('[data-testid=copywrite-rewrite-start]');
    await page.waitForSelector('[data-testid=copywrite-rewritten][data-streaming="1"]');
    await page.waitForSelector('[data-testid=copywrite-rewritten][data-streaming="0"]', { timeout: 30_000 });
    expect((await page.innerText('[data-testid=copywrite-rewritten] .cw-text')).trim()).toBe(REWRITTEN);
    expect(chat.requests.at(-1)!.user).toContain('种草');
    expect(chat.requests.at(-1)!.user).toContain('欢迎关注！');
    await page.click('[data-testid=copywrite-rewrite-save]');
    await toast(page, MSG.savedToMaterial);
    expect(await credits()).toBe(200 - LIMITS.copywrite.credits - LIMITS.chatAnswerCredits);

    // 去创作: the edited copy in the /create editor.
    await page.click('[data-testid=copywrite-create]');
    await page.waitForSelector('[data-testid=create-panel]');
    expect(hashPath(page)).toBe('/create?type=fk');
    await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await page.waitForFunction(() => (document.querySelector('.se-surface .view-lines')?.textContent ?? '').includes('欢迎关注！'));

    await page.goto(`${server.url}/#/material/index?type=text`);
    await page.waitForSelector(`[data-testid=material-list] >> text=${REWRITTEN}`);
    await context.close();
  });

  it('keeps the history: re-opens a record and deletes one after asking', { timeout: 90_000 }, async () => {
    // A second record: a link that is no video fails, and says it gave the credits back.
    const client = await apiClient(USER);
    await client.call(API.copywrite.submit, { type: 1, link: `${host.url}/v/missing.mp4` });
    const { page, context } = await loggedInPage(USER, '/store/copywrite/trace');
    await page.waitForSelector('[data-testid=copywrite-trace-row][data-status="4"]', { timeout: 30_000 });
    expect(await page.innerText('[data-testid=copywrite-trace-row][data-status="4"] [data-testid=copywrite-trace-preview]')).toBe(MSG.extractionFailed(MSG.fetchFailed, false));
    const done = page.locator('[data-testid=copywrite-trace-row][data-status="3"]');
    expect(await done.innerText()).toContain('欢迎关注！');

    await done.locator('[data-testid=copywrite-trace-open]').click();
    await page.waitForSelector('.dock-panel[data-route="/copywrite/index"] [data-testid=copywrite-result][data-status="3"]');
    expect(hashPath(page)).toMatch(/^\/copywrite\/index\?id=\d+$/);

    await page.goto(`${server.url}/#/store/copywrite/trace`);
    await page.click('[data-testid=copywrite-trace-row][data-status="4"] [data-testid=copywrite-trace-delete]');
    await page.click('.cw-alert .bp6-button >> text=删除');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=copywrite-trace-row]').length === 1);
    await context.close();
  });

  it('fits a phone and both themes', { timeout: 240_000 }, async () => {
    for (const { theme, phone } of LOOKS) {
      for (const route of ['/copywrite/index', '/store/copywrite/trace']) {
        const { page, context } = await loggedInPage(USER, route, { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
        const index = route === '/copywrite/index';
        await page.waitForSelector(index ? '[data-testid=copywrite-result][data-status="3"]' : '[data-testid=copywrite-trace-row]');
        if (index) {
          await page.click('[data-testid=copywrite-segments] summary');
          await page.click('[data-testid=copywrite-rewrite-start]');
          await page.waitForSelector('[data-testid=copywrite-rewritten][data-streaming="0"]', { timeout: 30_000 });
        }
        await page.waitForFunction(() => [...document.querySelectorAll('.cw-page .bp6-icon, .top-bar .bp6-icon')].every((el) => el.querySelector('svg')));
        await page.waitForFunction(() => document.querySelectorAll('.top-actions .bp6-button').length >= 3);
        await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.cw-cover img')].every((img) => img.complete && img.naturalWidth > 0));
        if (phone) expect(await horizontalOverflow(page, '.cw-page', '.cw-page *')).toEqual([]);
        const name = `copywrite-${index ? 'index' : 'trace'}-${theme}-${phone ? 'phone' : 'desktop'}`;
        await shoot(page, name);
        if (index) {
          // The top of the page as well (the rewrite button took the focus, and the scroll, above).
          await page.evaluate(() => document.querySelector('.cw-page')!.scrollTo(0, 0));
          await shoot(page, `${name}-top`);
        }
        await context.close();
      }
    }
  });
});
