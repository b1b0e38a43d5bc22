/**
 * The workbench frame as a newcomer meets it (issue 18): tabs that behave like VS Code's preview tabs, the last tab
 * closing to a usable empty state, titles, 即将上线 badges, pinyin in the palette, Alt+W and focus, a fresh
 * install's agreements and /use, the favicon, the login card and the phone top bar (screenshots into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../../src/contract';
import { BALANCE_UNKNOWN } from '../../src/plugins/credits/format';
import { frames, lastToast, launchBrowser, newPage, PHONE_VIEWPORT, screenshots, settled } from '../support/browser';
import { hashPath, loggedInPage, searchPalette, submitLogin } from '../support/journey';
import { startServer, type RunningServer } from '../support/server';

const USER = { username: '13800138020', password: 'abc123' };
const shoot = screenshots('shell');

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ webRoot: inject('webRoot') });
  await server.admin('user', 'create', '--username', USER.username, '--password', USER.password, '--credits', '1234');
  // The full browser, not the headless shell the other journeys use: every run drives Chromium as people run it.
  browser = await launchBrowser([], 'full');
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = (route: string, options: Parameters<typeof newPage>[1] = {}) => loggedInPage(browser, server, USER.username, USER.password, route, options);
/** The workbench's own tabs (the panes of /create have tabs too), in strip order. */
const tabs = (page: Page) => page.locator('[data-shell-tab]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-shell-tab')}${e.hasAttribute('data-preview') ? '*' : ''}`));
const nav = async (page: Page, id: string, route: string) => {
  await page.click(`.workbench-nav .nav-item[data-nav-id="${id}"]`);
  await page.waitForSelector(`.dock-panel[data-route="${route}"]`);
};

describe('tabs', () => {
  it('navigation replaces the preview tab; a page already open comes to the front; pinning and typing keep a tab', async () => {
    const { page, context } = await open('/home');
    expect(await tabs(page)).toEqual(['/home*']);
    expect(await page.locator('[data-shell-tab="/home"] .dv-default-tab-content').evaluate((e) => getComputedStyle(e).fontStyle)).toBe('italic');

    await nav(page, 'works', '/works');
    expect(await tabs(page)).toEqual(['/works*']);
    await page.dblclick('[data-shell-tab="/works"]');
    await page.waitForFunction(() => !document.querySelector('[data-shell-tab="/works"]')!.hasAttribute('data-preview'));
    expect(await page.locator('[data-shell-tab="/works"] .dv-default-tab-content').evaluate((e) => getComputedStyle(e).fontStyle)).toBe('normal');

    await nav(page, 'clone', '/clone');
    expect(await tabs(page)).toEqual(['/works', '/clone*']);
    await nav(page, 'consum', '/consum');
    expect(await tabs(page)).toEqual(['/works', '/consum*']);
    // Typing into a page is editing it.
    await page.fill('.dock-panel[data-route="/consum"] [data-testid=range-start]', '2024-01-01');
    await page.waitForFunction(() => !document.querySelector('[data-shell-tab="/consum"]')!.hasAttribute('data-preview'));
    await nav(page, 'use', '/use');
    expect(await tabs(page)).toEqual(['/works', '/consum', '/use*']);

    // Already open: focused, nothing added.
    await nav(page, 'works', '/works');
    expect(hashPath(page)).toBe('/works');
    expect(await tabs(page)).toEqual(['/works', '/consum', '/use*']);
    expect(await page.locator('.dv-tab.dv-active-tab [data-shell-tab]').first().getAttribute('data-shell-tab')).toBe('/works');

    // The palette's pin command keeps the preview.
    await page.click('[data-shell-tab="/use"]');
    // Typed once the search box is there (keys pressed before it opens are lost).
    await searchPalette(page, '固定当前页面');
    await page.waitForSelector('.palette-item.active >> text=固定当前页面');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('[data-shell-tab="/use"]')!.hasAttribute('data-preview'));
    await context.close();
  });

  it('scrolls the strip to the active tab', async () => {
    const { page, context } = await open('/home', { viewport: { width: 900, height: 700 } });
    const ids = ['home', 'create', 'multiples', 'store', 'profile', 'gProfile', 'clone', 'works', 'material.index', 'consum', 'moreCredits', 'use'];
    for (const id of ids) {
      await page.click(`.workbench-nav .nav-item[data-nav-id="${id}"]`);
      await page.waitForFunction((n) => document.querySelectorAll('[data-shell-tab]').length >= n, ids.indexOf(id) + 1);
      await page.dblclick('.dv-tab.dv-active-tab [data-shell-tab]');
    }
    expect((await tabs(page)).length).toBe(ids.length);
    const shown = (route: string, visible: boolean) =>
      page.waitForFunction(
        ({ r, v }) => {
          const tab = document.querySelector(`[data-shell-tab="${r}"]`)!.closest('.dv-tab')!.getBoundingClientRect();
          const strip = document.querySelector('.dock-area .dv-tabs-container')!.getBoundingClientRect();
          return (tab.left >= strip.left - 1 && tab.right <= strip.right + 1) === v;
        },
        { r: route, v: visible },
        { timeout: 3000 },
      );
    await shown('/use', true);
    await shown('/home', false);
    await nav(page, 'home', '/home');
    await shown('/home', true);
    await shown('/use', false);
    await context.close();
  });

  it('closing the last tab clears the address, highlight and title; a nav click opens its page again', async () => {
    const { page, context } = await open('/create');
    expect(await page.title()).toBe('开始创作 - AI超级分身');
    await page.hover('[data-shell-tab="/create"]');
    await page.click('.dv-tab:has([data-shell-tab="/create"]) .dv-default-tab-action');
    await page.waitForSelector('[data-testid=dock-empty]');
    await page.waitForFunction(() => location.hash === '');
    expect(await page.locator('.workbench-nav .nav-item.active').count()).toBe(0);
    expect(await page.textContent('[data-testid=top-title]')).toBe('');
    expect(await page.title()).toBe('AI超级分身');

    await nav(page, 'create', '/create');
    expect(hashPath(page)).toBe('/create');
    expect(await page.textContent('.workbench-nav .nav-item.active')).toContain('开始创作');
    expect(await page.textContent('[data-testid=top-title]')).toBe('开始创作');

    // The watermark's own button too.
    await page.keyboard.press('Alt+w');
    await page.waitForSelector('[data-testid=dock-empty]');
    await page.click('[data-testid=dock-empty] >> text=打开首页');
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    expect(hashPath(page)).toBe('/home');
    await context.close();
  });

  it('Alt+W leaves the page alone while a pane inside it has the focus', async () => {
    const { page, context } = await open('/create');
    await page.waitForSelector('.dock-panel[data-route="/create"] .cr-dockview .dv-groupview');
    await page.locator('.dock-panel[data-route="/create"] .cr-dockview .dv-tab').first().focus();
    await page.keyboard.press('Alt+w');
    // The key has been handled and whatever it caused drawn (a closed tab, the confirmation it asks).
    await frames(page);
    expect(await page.locator('.close-confirm').count()).toBe(0);
    expect(await tabs(page)).toEqual(['/create*']);
    // With the focus on the page itself (not in a pane), Alt+W closes it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Alt+w');
    await page.waitForSelector('[data-testid=dock-empty]');
    await context.close();
  });
});

describe('where you are', () => {
  it("titles the document from the routing table and the site's title; the nav never goes stale; 页面不存在 has a title", async () => {
    const { page, context } = await open('/works');
    expect(await page.title()).toBe('我的作品 - AI超级分身');
    await page.evaluate(() => (location.hash = '#/pet'));
    await page.waitForSelector('.dock-panel[data-route="/pet"]');
    expect(await page.locator('.workbench-nav .nav-item.active').count()).toBe(0);
    expect(await page.title()).toBe('宠物库 - AI超级分身');
    await page.evaluate(() => (location.hash = '#/store/wsImage'));
    await page.waitForSelector('.dock-panel[data-route="/store/wsImage"]');
    expect(await page.getAttribute('.workbench-nav .nav-item.active', 'data-nav-id')).toBe('store');
    await page.evaluate(() => (location.hash = '#/no/such/page'));
    await page.waitForSelector('.dock-panel >> text=您访问的页面不存在或已下线。');
    expect(await page.textContent('[data-testid=top-title]')).toBe('页面不存在');
    expect(await page.title()).toBe('页面不存在 - AI超级分身');

    await server.admin('site', 'set', 'site_title=星河分身');
    await page.evaluate(() => (location.hash = '#/create'));
    await page.reload();
    await page.waitForSelector('.dock-panel[data-route="/create"]');
    await page.waitForFunction(() => document.title === '开始创作 - 星河分身');
    await server.admin('site', 'set', 'site_title=AI超级分身');
    await context.close();
  });
});

describe('即将上线 badges', () => {
  it('mark every entry point whose screen is not built, and no built one', async () => {
    const { page, context } = await open('/store');
    const navBadge = (id: string) => page.locator(`.workbench-nav .nav-item[data-nav-id="${id}"] .soon-badge`).count();
    for (const built of ['home', 'create', 'works', 'store', 'clone', 'use', 'explosiveAnalysis', 'cozeVideo', 'employee']) expect(await navBadge(built)).toBe(0);

    const panel = '.dock-panel[data-route="/store"]';
    await page.waitForSelector(`${panel} [data-testid=store-banner]`);
    // The pet and photo-speak screens are built: their banners carry no badge.
    for (const banner of ['/pet', '/store/imageSpeak']) {
      expect(await page.locator(`${panel} [data-testid=store-banner][data-path="${banner}"] [data-testid=soon-badge]`).count()).toBe(0);
    }
    // The store's built tools carry no badge; every other card says 即将上线.
    const builtTools = [
      '/store/aiChat', '/store/wsImage', '/store/wsVideo', '/store/tsVideo', '/store/extraction', '/store/audioExtraction', '/store/sea',
      '/store/imageSpeak', '/store/characters', '/pet', '/pet/establish', '/store/dubbing/index', '/copywrite/index', '/store/music/index',
    ];
    const cards = page.locator(`${panel} [data-testid=store-card]`);
    expect(await cards.count()).toBeGreaterThan(0);
    const notBuilt = builtTools.map((p) => `:not([data-path="${p}"])`).join('');
    expect(await page.locator(`${panel} [data-testid=store-card]${notBuilt}`).count()).toBeGreaterThan(0);
    expect(await page.locator(`${panel} [data-testid=store-card]${notBuilt}:not(:has([data-testid=soon-badge]))`).count()).toBe(0);
    for (const tool of builtTools) expect(await page.locator(`${panel} [data-testid=store-card][data-path="${tool}"] [data-testid=soon-badge]`).count()).toBe(0);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('前往');
    await page.waitForSelector('.palette-item');
    expect(await page.locator('.palette-item[data-command="nav./cozeVideo"] .soon-badge').count()).toBe(0);
    expect(await page.locator('.palette-item[data-command="nav./explosiveAnalysis"] .soon-badge').count()).toBe(0);
    expect(await page.locator('.palette-item[data-command="nav./works"] .soon-badge').count()).toBe(0);
    await context.close();
  });
});

describe('palette', () => {
  it('finds commands by full pinyin and by initials', async () => {
    const { page, context } = await open('/home');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('.palette-search');
    await page.keyboard.type('zuopin');
    await page.waitForSelector('.palette-item >> text=前往：我的作品');
    await page.fill('.palette-search', 'wdzp');
    await page.waitForSelector('.palette-item.active >> text=前往：我的作品');
    await page.fill('.palette-search', 'kaishichuangzuo');
    await page.waitForSelector('.palette-item.active >> text=前往：开始创作');
    await page.fill('.palette-search', 'zhuti');
    await page.waitForSelector('.palette-item.active >> text=切换深色/浅色主题');
    await page.fill('.palette-search', 'wdzp');
    await page.waitForSelector('.palette-item.active >> text=前往：我的作品');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await context.close();
  });
});

describe('a fresh install', () => {
  it('ships neutral agreement templates (no setup text for users) that the operator replaces with site set key=@file', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/#/protocol?type=user`);
    await page.waitForSelector('.protocol-content >> text=协议的接受');
    expect(await page.textContent('.protocol-content')).not.toMatch(/默认模板|npm run|admin/);
    expect(await page.title()).toBe('用户协议 - AI超级分身');
    await page.goto(`${server.url}/#/protocol?type=privacy`);
    await page.waitForSelector('.protocol-content >> text=我们收集的信息');

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eula-')), 'eula.html');
    fs.writeFileSync(file, '<h2>星河用户协议</h2><p>正文。</p>');
    await server.admin('site', 'set', `eula=@${file}`);
    await expect(server.admin('site', 'set', `eula=@${file}.missing`)).rejects.toThrow(/eula: cannot read .*ENOENT/);
    await page.goto(`${server.url}/#/protocol?type=user`);
    await page.waitForSelector('.protocol-content >> text=星河用户协议');
    expect(await page.textContent('.protocol-content')).not.toContain('默认模板');
    await context.close();
  });

  it('says on /use that tutorials will show there, without the operator\'s command (that goes to the first-start output)', async () => {
    const { page, context } = await open('/use');
    await page.waitForSelector('[data-testid=guide-empty] >> text=暂无教程');
    expect(await page.textContent('[data-testid=guide-empty]')).not.toMatch(/npm run|admin/);
    expect(server.output()).toContain('npm run admin -- guide add --category');
    expect(server.output()).toContain('npm run admin -- site set eula=@<文件> privacy_agreement=@<文件> clone_usage=@<文件>');
    await context.close();
  });

  it('serves a favicon', async () => {
    const res = await fetch(`${server.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/icon/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.readUInt16LE(2)).toBe(1); // an icon resource
  });
});

describe('login card and toasts', () => {
  it('keeps the tabs in place when switching, and 登录成功 leaves with the login page', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/#/login`);
    await page.waitForSelector('#login-username');
    const tabsTop = () => page.locator('.login-card .bp6-tab-list').evaluate((e) => Math.round(e.getBoundingClientRect().top));
    const before = await tabsTop();
    await page.click('.login-card .bp6-tab >> text=兑换码注册');
    await page.waitForSelector('#reg-code');
    expect(await tabsTop()).toBe(before);
    await page.click('.login-card .bp6-tab >> text=登录');
    await page.waitForSelector('#login-username');
    expect(await tabsTop()).toBe(before);

    await submitLogin(page, USER.username, USER.password);
    expect(await lastToast(page)).toBe(MSG.loginSucceeded);
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    await page.waitForFunction(() => document.querySelectorAll('.bp6-toast').length === 0, undefined, { timeout: 1500 });
    await context.close();
  });
});

describe('a screen whose code cannot be fetched (issue 33)', () => {
  /** As with the server gone: every chunk the page has not fetched yet fails (the ones it has stay in memory). */
  const offline = (page: Page) => page.route('**/assets/**', (route) => route.abort('internetdisconnected'));
  const failure = (page: Page, route: string) => page.locator(`.dock-panel[data-route="${route}"] [data-testid=load-failed]`);
  /** The failure's icon is drawn (the box of 加载失败 had no icon when icons were fetched too). */
  const iconDrawn = (page: Page, route: string) =>
    failure(page, route).evaluate((box) => [...box.querySelectorAll('.bp6-non-ideal-state-visual svg path, .bp6-button svg path')].filter((p) => (p.getAttribute('d') ?? '').length > 10).length);

  for (const theme of ['dark', 'light'] as const) {
    it(`fails into 加载失败 with 重新加载 inside its own tab, keeps the shell, and loads on 重新加载 (${theme})`, async () => {
      // Retrying by itself is the next test; here only the button may bring the screen back.
      const { page, context } = await open('/home', { theme, timings: { chunkRetryMs: 600_000 }, freshCache: true });
      await page.waitForSelector('[data-testid=points-button]');
      await offline(page);
      await page.click('.workbench-nav .nav-item[data-nav-id="profile"]');
      const failed = failure(page, '/profile');
      await failed.waitFor();
      expect(await failed.textContent()).toContain('加载失败');
      expect(await failed.textContent()).toContain(MSG.chunkLoadFailed);
      expect(await iconDrawn(page, '/profile')).toBe(2);
      // The shell is alive: the nav, the top bar and the other tab still work.
      expect(await page.isVisible('[data-testid=points-button]')).toBe(true);
      await nav(page, 'home', '/home');
      await page.click('.workbench-nav .nav-item[data-nav-id="profile"]');
      await failed.waitFor();
      await shoot(page, `load-failed-${theme}`);
      // Still down: 重新加载 tries, fails, and says so again.
      await failed.locator('button:has-text("重新加载")').click();
      await page.waitForFunction(() => !document.querySelector('[data-testid=load-failed] .bp6-button-spinner'));
      expect(await failed.isVisible()).toBe(true);

      await page.unroute('**/assets/**');
      await failed.locator('button:has-text("重新加载")').click();
      await page.waitForSelector('.dock-panel[data-route="/profile"] [data-testid=profile-panel]');
      expect(await failed.count()).toBe(0);
      // Styled: its stylesheet failed with the code and was fetched again.
      expect(await page.locator('[data-testid=profile-panel]').evaluate((e) => getComputedStyle(e).overflowY)).toBe('auto');
      await context.close();
    });

    it(`loads again by itself once the server answers, at phone width (${theme})`, async () => {
      const { page, context } = await open('/home', { theme, viewport: PHONE_VIEWPORT, timings: { chunkRetryMs: 400 }, freshCache: true });
      await page.waitForSelector('[data-testid=points-button]');
      await offline(page);
      await page.evaluate(() => (location.hash = '#/consum'));
      const failed = failure(page, '/consum');
      await failed.waitFor();
      expect(await iconDrawn(page, '/consum')).toBe(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shoot(page, `load-failed-phone-${theme}`);
      await page.unroute('**/assets/**');
      await page.waitForSelector('.dock-panel[data-route="/consum"] [data-testid=consum-panel]');
      expect(await failed.count()).toBe(0);
      await context.close();
    });
  }
});

describe('looked at', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`/store at 1366 and the phone top bar at 390x844 (${theme})`, async () => {
      const desk = await open('/store', { theme });
      await desk.page.waitForSelector('[data-testid=store-card]');
      await shoot(desk.page, `store-${theme}`);
      await desk.context.close();

      const phone = await open('/works', { theme, viewport: PHONE_VIEWPORT });
      await phone.page.waitForSelector('[data-testid=points-button]');
      await settled(phone.page, '.top-bar *');
      // The tab strip does not take a row on a phone; the title names the page in full, the balance shows.
      expect(await phone.page.locator('.dock-area .dv-tabs-and-actions-container:has([data-shell-tab])').isVisible()).toBe(false);
      const title = phone.page.locator('[data-testid=top-title-button] .bp6-button-text');
      expect(await title.textContent()).toBe('我的作品');
      expect(await title.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      // A dash until the profile has come, then the balance.
      const balance = phone.page.locator('[data-testid=points-button] .bp6-button-text');
      await balance.filter({ hasNotText: BALANCE_UNKNOWN }).waitFor({ timeout: 15_000 });
      expect(await balance.textContent()).toBe('1,234');
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shoot(phone.page, `phone-${theme}`, { clip: { x: 0, y: 0, width: 390, height: 220 } });
      // The title lists the open pages.
      await phone.page.click('[data-testid=top-title-button]');
      await phone.page.waitForSelector('[data-testid=open-pages] >> text=我的作品');
      await shoot(phone.page, `phone-pages-${theme}`, { clip: { x: 0, y: 0, width: 390, height: 300 } });
      await phone.context.close();
    });
  }
});
