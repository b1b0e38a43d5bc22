/**
 * /create as a newcomer meets it (issue 18): the draft survives closing the tab and a reload and goes after a
 * submission (closing with unsaved text asks first); panes close and come back; the page's commands in the palette;
 * 合成视频 and its price in view at 1366×768 and in half of a split workbench, the script pane still usable after a
 * reload of that split; the avatar pane opens on a list with items. Screenshots into SHOTS_DIR when set.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LIMITS, MSG } from '../../src/contract';
import { CLOSE_TAB_LABEL } from '../../src/core/dock-tab';
import { PHONE_VIEWPORT, layoutStored, screenshots, settled } from '../support/browser';
import { pickCreateVoice, publicAvatar, publicAvatars, runCommand, trainedPublicVoices, typeScript, useJourney, type PageOptions } from '../support/journey';
import { makeSpeech, makeVideo } from '../support/media';

const USERNAME = '13800009181';
const shoot = screenshots('create-newcomer');
const AVATAR_NAME = '新人主播·竖屏';
const VOICE_NAME = '新人·女声';
const LAPTOP = { width: 1366, height: 768 };

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  users: { [USERNAME]: 10_000 },
  arrange: publicAvatars({ [AVATAR_NAME]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 360, height: 640, seconds: 6 }) }),
});

beforeAll(async () => {
  const dir = mediaDir();
  // Only public avatars (portrait) and a public voice: the user's own list is empty.
  const speech = await makeSpeech(path.join(dir, 'speech.mp3'), '大家好，欢迎来到我的直播间。');
  await server.admin('voice', 'publish', speech, '--name', VOICE_NAME);
  const client = await apiClient(USERNAME);
  expect((await publicAvatar(client, AVATAR_NAME)).orientation).toBe(2);
  await trainedPublicVoices(client, VOICE_NAME);
}, 300_000);

async function openCreate(options: PageOptions = {}) {
  const opened = await loggedInPage(USERNAME, '/create', options);
  await opened.page.waitForSelector('[data-testid=create-panel] .se-surface .monaco-editor .view-lines', { timeout: 30_000 });
  return opened;
}
const scriptText = (page: Page) => page.locator('[data-testid=create-script] .se-surface .view-lines').innerText();
const paneIds = (page: Page) => page.locator('.cr-dockview [data-testid^=create-tab-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('create-tab-'.length)).sort());

/** The element is inside the viewport and is what is on top at its centre (not covered, not scrolled away). */
async function inView(page: Page, selector: string) {
  const box = (await page.locator(selector).boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box, selector).toBeTruthy();
  expect(box.y, selector).toBeGreaterThanOrEqual(0);
  expect(box.x, selector).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, selector).toBeLessThanOrEqual(viewport.height);
  expect(box.x + box.width, selector).toBeLessThanOrEqual(viewport.width);
  const onTop = await page.evaluate(({ sel, x, y }) => {
    const el = document.elementFromPoint(x, y);
    return !!el && !!document.querySelector(sel)?.contains(el);
  }, { sel: selector, x: box.x + box.width / 2, y: box.y + box.height / 2 });
  expect(onTop, `${selector} is covered`).toBe(true);
}

describe('/create keeps its draft', () => {
  it('type, close the tab (it asks), reopen: restored; reload: restored; submit: gone', { timeout: 240_000 }, async () => {
    const { page, context } = await openCreate({ viewport: LAPTOP });
    await page.fill('[data-testid=create-name]', '草稿作品');
    await typeScript(page, '这是一段还没有提交的台词。');
    await page.waitForSelector('[data-shell-tab="/create"][data-dirty=true]');

    // The tab's ×: asked first; 取消 keeps the page.
    await page.hover('[data-shell-tab="/create"]');
    await page.click('.dv-tab:has([data-shell-tab="/create"]) .dv-default-tab-action');
    await page.waitForSelector('[data-testid=close-confirm]');
    expect(await page.textContent('[data-testid=close-confirm]')).toBe(MSG.closeUnsaved('开始创作'));
    await page.click('.close-confirm .bp6-alert-footer .bp6-button >> text=取消');
    await page.waitForSelector('[data-testid=close-confirm]', { state: 'detached' });
    expect(await page.locator('.dock-panel[data-route="/create"]').count()).toBe(1);
    // Alt+W from the page asks too; 关闭 closes it.
    await page.click('.cr-head .cr-title');
    await page.keyboard.press('Alt+w');
    await page.click('.close-confirm .bp6-alert-footer .bp6-button >> text=关闭');
    await page.waitForSelector('[data-testid=dock-empty]');

    // Reopened: the draft is back.
    await page.click('.workbench-nav .nav-item[data-nav-id="create"]');
    await page.waitForSelector('[data-testid=create-panel] .se-surface .view-lines');
    await page.waitForFunction(() => (document.querySelector('[data-testid=create-script] .view-lines') as HTMLElement | null)?.innerText.includes('还没有提交'));
    expect(await page.inputValue('[data-testid=create-name]')).toBe('草稿作品');
    // Reloaded: still there.
    await page.reload();
    await page.waitForSelector('[data-testid=create-panel] .se-surface .view-lines', { timeout: 30_000 });
    await page.waitForFunction(() => (document.querySelector('[data-testid=create-script] .view-lines') as HTMLElement | null)?.innerText.includes('还没有提交'));
    expect(await page.inputValue('[data-testid=create-name]')).toBe('草稿作品');

    // The avatar pane opened on 公共 (我的 is empty), portrait first; pick, choose the voice from the palette, submit.
    await page.click('[data-testid=create-tab-avatar]');
    await page.waitForSelector(`[data-testid=create-avatars] .cr-avatar >> text=${AVATAR_NAME}`);
    expect(await page.textContent('[data-testid=create-avatar-source] .bp6-active, [data-testid=create-avatar-source] [aria-checked=true], [data-testid=create-avatar-source] [aria-pressed=true]')).toContain('公共');
    expect(await page.locator('[data-testid=create-avatar-orientation] button').allTextContents()).toEqual(['竖屏', '横屏']);
    await page.click(`[data-testid=create-avatars] .cr-avatar >> text=${AVATAR_NAME}`);
    await runCommand(page, '选择声音', 'creation.create.voice');
    await pickCreateVoice(page, VOICE_NAME);
    // On a laptop the picked voice's parameters come into sight in their pane, above the preview pane.
    await page.waitForFunction(() => {
      const params = document.querySelector('[data-testid=create-voice-params]')!.getBoundingClientRect();
      const pane = document.querySelector('[data-testid=create-voices]')!.getBoundingClientRect();
      return params.top >= pane.top && params.bottom <= pane.bottom + 1;
    });
    expect(await page.textContent('[data-testid=create-head-price]')).toMatch(/约 \d+ 积分/);
    // No channel chosen yet: the preview speaks of the best one offered (本地口型), and the dialog preselects it;
    // the effect order names only the channels there are.
    expect(await page.textContent('[data-testid=create-channel-note]')).toContain(MSG.lipChannelNote);
    await runCommand(page, '合成视频', 'creation.create.submit');
    await page.waitForSelector('[data-testid=create-channel-lip][aria-checked=true]');
    expect(await page.textContent('[data-testid=create-channel-tips]')).toBe(` ${MSG.effectOrder(['1.5 本地口型', '1.0 本地合成'])}`);
    expect(await page.textContent('[data-testid=create-channel-lipsync]')).toBe(MSG.lipSyncSummary);
    // Every label in Chinese: the tabs' close buttons (workbench and panes) and the music select's caret.
    await page.waitForSelector('[data-testid=bgm-track]');
    expect(await page.evaluate(() => ['Close tab', 'Open dropdown'].filter((en) => document.body.innerHTML.includes(en)))).toEqual([]);
    expect(await page.locator(`.dv-default-tab-action[aria-label="${CLOSE_TAB_LABEL}"]`).count()).toBeGreaterThan(1);
    await page.click('[data-testid=create-channel-local]');
    await page.click('[data-testid=create-channel-confirm]');
    await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
    // Moving to /works by the address (not the dialog's button): 提交成功 does not stay open over it.
    await page.evaluate(() => (location.hash = '#/works'));
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await page.waitForSelector('.cr-alert', { state: 'detached' });
    await page.click('.workbench-nav .nav-item[data-nav-id="create"]');
    // Submitted: no longer unsaved, and a reload opens an empty page.
    await page.waitForSelector('[data-shell-tab="/create"]:not([data-dirty])');
    expect(await page.evaluate(() => localStorage.getItem('aisa.draft.create.draft'))).toBeNull();
    await page.reload();
    await page.waitForSelector('[data-testid=create-panel] .se-surface .view-lines', { timeout: 30_000 });
    // The editor starts with the draft's text, if any: its first line drawn shows what it started with.
    await page.waitForSelector('[data-testid=create-script] .se-surface .view-line');
    expect(await scriptText(page)).not.toContain('还没有提交');
    expect(await page.inputValue('[data-testid=create-name]')).toBe(LIMITS.defaultWorkName);
    // The last choice (本地合成) outlives the draft: the preview's note follows it.
    expect(await page.textContent('[data-testid=create-channel-note]')).toContain(MSG.localChannelNote);
    await context.close();
  });

  it('type=fk text wins over the stored draft', async () => {
    const { page, context } = await openCreate();
    await typeScript(page, '旧的草稿');
    await page.waitForSelector('[data-shell-tab="/create"][data-dirty=true]');
    await page.evaluate(() => localStorage.setItem('aisa.createText', JSON.stringify('工具送来的文案')));
    await page.evaluate(() => (location.hash = '#/create?type=fk'));
    await page.reload();
    await page.waitForSelector('[data-testid=create-panel] .se-surface .view-lines', { timeout: 30_000 });
    await page.waitForFunction(() => (document.querySelector('[data-testid=create-script] .view-lines') as HTMLElement | null)?.innerText.includes('工具送来的文案'));
    expect(await scriptText(page)).not.toContain('旧的草稿');
    await context.close();
  });
});

describe('/create panes and palette', () => {
  it('a pane closes and comes back from the palette and the reset button; the drive switches from the palette', async () => {
    const { page, context } = await openCreate({ viewport: LAPTOP });
    expect(await paneIds(page)).toEqual(['avatar', 'preview', 'script', 'voice']);
    await page.hover('[data-testid=create-tab-voice]');
    await page.click('.cr-dockview .dv-tab:has([data-testid=create-tab-voice]) .dv-default-tab-action');
    expect(await paneIds(page)).toEqual(['avatar', 'preview', 'script']);
    // Closed panes stay closed after a reload.
    await layoutStored(page, 'aisa.create.layout', { screen: 'wide', groups: 3, panels: ['avatar', 'preview', 'script'] });
    await page.reload();
    await page.waitForSelector('[data-testid=create-panel] .cr-dockview .dv-tab');
    expect(await paneIds(page)).toEqual(['avatar', 'preview', 'script']);
    await runCommand(page, '显示「声音」窗格', 'creation.create.pane.voice');
    await page.waitForSelector('[data-testid=create-voices]');
    expect(await paneIds(page)).toEqual(['avatar', 'preview', 'script', 'voice']);

    for (const id of ['voice', 'avatar', 'preview', 'script']) {
      await page.hover(`[data-testid=create-tab-${id}]`);
      await page.click(`.cr-dockview .dv-tab:has([data-testid=create-tab-${id}]) .dv-default-tab-action`);
    }
    await page.waitForSelector('[data-testid=create-no-panes]');
    await page.click('[data-testid=create-no-panes] >> text=恢复默认布局');
    await page.waitForSelector('[data-testid=create-script] .se-surface');
    expect(await paneIds(page)).toEqual(['avatar', 'preview', 'script', 'voice']);

    await runCommand(page, '切换为音频驱动', 'creation.create.audioDrive');
    await page.waitForSelector('[data-testid=create-audio]');
    await runCommand(page, '切换为文本驱动', 'creation.create.textDrive');
    await page.waitForSelector('[data-testid=create-script] .se-surface');
    // The page's commands belong to /create: another active page hides them.
    await page.click('.workbench-nav .nav-item[data-nav-id="works"]');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('开始创作');
    await page.waitForSelector('.palette-item');
    expect(await page.locator('.palette-item[data-command^="creation.create."]').count()).toBe(0);
    await context.close();
  });
});

describe('the main action in view', () => {
  it('合成视频 and the price at 1366×768 (dark), in half of a split workbench and after its reload; the phone (light)', async () => {
    const theme = 'dark';
    const { page, context } = await openCreate({ viewport: LAPTOP, theme });
    await inView(page, '[data-testid=create-submit]');
    await inView(page, '[data-testid=create-head-price]');
    await shoot(page, `create-1366-${theme}`);

    // Split: /create on the left half, /works on the right.
    await page.dblclick('[data-shell-tab="/create"]');
    await page.click('.workbench-nav .nav-item[data-nav-id="works"]');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await runCommand(page, '向右拆分当前页面', 'workbench.splitRight');
    await page.waitForFunction(() => document.querySelectorAll('.dock-area > .dv-dockview .dv-groupview, .dock-area .dv-groupview:not(.cr-dockview .dv-groupview)').length >= 2);
    await page.click('[data-shell-tab="/create"]');
    const half = await page.locator('.dock-panel[data-route="/create"]').boundingBox();
    expect(half!.width).toBeLessThan(LAPTOP.width * 0.6);
    await inView(page, '[data-testid=create-submit]');
    await inView(page, '[data-testid=create-head-price]');
    await shoot(page, `create-split-${theme}`);

    await layoutStored(page, 'aisa.workbench.layout', { groups: 2 });
    await page.reload();
    await page.waitForSelector('[data-testid=create-panel] .se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await page.click('[data-testid=create-tab-script]');
    await settled(page, '[data-testid=create-script]');
    const script = await page.locator('[data-testid=create-script]').boundingBox();
    expect(script!.width).toBeGreaterThanOrEqual(300);
    await inView(page, '[data-testid=create-submit]');
    await shoot(page, `create-split-reloaded-${theme}`);
    await context.close();

    const phone = await openCreate({ viewport: PHONE_VIEWPORT, theme: 'light' });
    await inView(phone.page, '[data-testid=create-submit]');
    await inView(phone.page, '[data-testid=create-head-price]');
    await shoot(phone.page, `create-phone-light`);
    await phone.context.close();
  });
});
