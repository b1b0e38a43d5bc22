import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG } from '../../src/contract';
import { ApiTestClient, TEST_PASSWORD } from '../support/app';
import { frames, imagesDone, lastToast, layoutStored, PHONE_VIEWPORT } from '../support/browser';
import { searchPalette, submitLogin as fillLogin, useJourney, type PageOptions } from '../support/journey';
import { until } from '../support/wait';

const USER = { username: '13800138000', password: TEST_PASSWORD };

const journey = useJourney({ users: { [USER.username]: 88 } });
const { server, newPage } = journey;
const loggedInPage = (path = '/home', options: PageOptions = {}) => journey.loggedInPage(USER.username, path, options);

const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '');

describe('login', () => {
  it('logs in, stores the token, and lands on /home after the delay', async () => {
    const { page } = await newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=login-submit]');
    expect(hashPath(page)).toMatch(/^\/login\?redirectUrl=%2Fhome/);
    await fillLogin(page, USER.username, USER.password);
    expect(await lastToast(page)).toBe(MSG.loginSucceeded);
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    expect(hashPath(page)).toBe('/home');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aisa.token') ?? 'null'));
    expect(typeof token).toBe('string');
    await page.context().close();
  });

  it('shows the server message for a wrong password and stays', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login`);
    await fillLogin(page, USER.username, 'wrong-pass');
    expect(await lastToast(page)).toBe(MSG.loginFailed);
    expect(hashPath(page)).toBe('/login');
    // Then the right password: 登录成功 replaces the refusal, which does not follow the user to /home.
    await page.fill('#login-password', USER.password);
    expect(await page.locator('.bp6-toast', { hasText: MSG.loginFailed }).count()).toBe(1);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    // Checked at once: the refusal's own timer (4 s) has not run out by then, only the success cleared it.
    expect(await page.locator('.bp6-toast', { hasText: MSG.loginFailed }).count()).toBe(0);
    await page.context().close();
  });

  it('requires the agreement, the username and the password', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login`);
    await fillLogin(page, USER.username, USER.password, false);
    expect(await lastToast(page)).toBe(MSG.loginAgreementRequired);
    await page.fill('#login-username', '');
    await page.click('[data-testid=login-submit]');
    await page.waitForFunction((m) => [...document.querySelectorAll('.bp6-toast')].some((t) => t.textContent?.includes(m)), MSG.loginUsernameRequired);
    await page.fill('#login-username', USER.username);
    await page.fill('#login-password', '');
    await page.click('[data-testid=login-submit]');
    await page.waitForFunction((m) => [...document.querySelectorAll('.bp6-toast')].some((t) => t.textContent?.includes(m)), MSG.loginPasswordRequired);
    expect(await page.evaluate(() => localStorage.getItem('aisa.token'))).toBeNull();
    await page.context().close();
  });

  it('shows both tabs; the registration tab has its form', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login?state=2`);
    await page.waitForSelector('#reg-code');
    expect(await page.isVisible('#reg-username')).toBe(true);
    await page.click('text=登录 >> nth=0');
    await page.waitForSelector('#login-username');
    await page.context().close();
  });

  it('on code 100 shows the message, clears the token, and comes back after login', async () => {
    // The app is closed (about:blank) before the session ends and opened again after: a call of the open app (a poll,
    // a startup call still under way) that met the ended session first would take the toast and the token with the
    // old page, and the reopened /login would have no session left to lose (the cause of this test's rare failures).
    const { page } = await loggedInPage('/works?type1=1');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aisa.token')!));
    await page.goto('about:blank');
    // The session ends on the server (as after a password change elsewhere).
    expect((await new ApiTestClient(server.url, token).call(API.account.logout, {})).code).toBe(0);
    // Not until the load event: the refusal comes as the app starts.
    await page.goto(`${server.url}/#/works?type1=1`, { waitUntil: 'commit' });
    // The toast first: it shows as the refusal comes and leaves after its timeout, which a slow login chunk can outlast.
    expect(await lastToast(page)).toBe(MSG.sessionExpired);
    await page.waitForSelector('[data-testid=login-submit]');
    expect(decodeURIComponent(hashPath(page))).toBe('/login?redirectUrl=/works?type1=1');
    expect(await page.evaluate(() => localStorage.getItem('aisa.token'))).toBeNull();
    await fillLogin(page, USER.username, USER.password);
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    expect(hashPath(page)).toBe('/works?type1=1');
    await page.context().close();
  });
});

describe('workbench', () => {
  it('navigates with the palette (Ctrl+K) and with a key sequence', async () => {
    const { page } = await loggedInPage('/home');
    await searchPalette(page, '我的作品');
    await page.waitForSelector('.palette-item.active >> text=前往：我的作品');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    expect(hashPath(page)).toBe('/works');
    expect(await page.textContent('.nav-item.active')).toContain('我的作品');
    expect(await page.evaluate(() => localStorage.getItem('aisa.nav.active'))).toBe('"works"');
    await page.click('.dv-tab >> text=我的作品');
    await page.keyboard.press('g');
    await page.keyboard.press('h');
    await page.waitForFunction(() => location.hash === '#/home');
    await page.context().close();
  });

  it('builds every route of its nav (no 即将上线 badge) and shows 页面不存在 for an unknown one', async () => {
    // Every screen of the standard build has landed; the helper screens (helper hosts) still render 即将上线 there.
    const { page } = await loggedInPage('/home');
    await page.waitForSelector('.workbench-nav .nav-item');
    expect(await page.locator('.workbench-nav .nav-item').count()).toBeGreaterThan(5);
    expect(await page.locator('.workbench-nav .nav-item:has(.soon-badge)').count()).toBe(0);
    await page.evaluate(() => (location.hash = '#/no/such/page'));
    await page.waitForSelector('text=页面不存在');
    await page.context().close();
  });

  it('keeps the console quiet: no warning or error while /works loads', async () => {
    // Blueprint's development checks (a React 19 warning from every <Popover>) once ran in the release build.
    const { page } = await loggedInPage('/home');
    const said: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') said.push(`${m.type()}: ${m.text().slice(0, 200)}`);
    });
    await page.reload();
    await page.evaluate(() => (location.hash = '#/works'));
    await page.waitForSelector('[data-testid=works-panel]');
    // Popovers warn as they mount: a few frames after the panel shows, every one on the page has.
    await frames(page, 5);
    expect(said).toEqual([]);
  });

  it('keeps a split layout across a reload', async () => {
    const { page } = await loggedInPage('/home');
    // Pinned (double-click), so the next navigation opens a second tab rather than taking the preview's place.
    await page.dblclick('[data-shell-tab="/home"]');
    await page.click('.nav-item[data-nav-id="works"]');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    // The split command's own binding (the palette's navigation is covered above).
    await page.click('.dv-tab >> text=我的作品');
    await page.keyboard.press('Control+Alt+Backslash');
    await page.waitForFunction(() => document.querySelectorAll('.dv-groupview').length === 2);
    await layoutStored(page, 'aisa.workbench.layout', { groups: 2 });
    await page.reload();
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    expect(await page.locator('.dv-groupview').count()).toBe(2);
    await page.context().close();
  });

  it('follows the system until the user picks, then persists the pick: light after the toggle and a reload', async () => {
    const { page } = await loggedInPage('/home');
    const dark = () => page.evaluate(() => document.body.classList.contains('bp6-dark'));
    expect(await dark()).toBe(true);
    // No pick yet: the system's preference changes, the page follows.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => !document.body.classList.contains('bp6-dark'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.body.classList.contains('bp6-dark'));
    await page.click('[data-testid=theme-toggle]');
    await page.waitForFunction(() => document.body.classList.contains('app-light'));
    await page.reload();
    await page.waitForSelector('.dock-panel');
    expect(await page.evaluate(() => document.body.classList.contains('app-light') && !document.body.classList.contains('bp6-dark'))).toBe(true);
    await page.keyboard.press('Control+Shift+L');
    await page.waitForFunction(() => document.body.classList.contains('bp6-dark'));
    // Picked: the system's preference no longer moves it.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await page.waitForSelector('.dock-panel');
    expect(await dark()).toBe(true);
    await page.context().close();
  });

  it('works at phone width: the nav is a drawer', async () => {
    const { page } = await loggedInPage('/home', { viewport: PHONE_VIEWPORT });
    expect(await page.isVisible('.workbench-nav')).toBe(false);
    const rem = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--app-rem').trim());
    expect(rem).toBe(`${PHONE_VIEWPORT.width / 10}px`);
    await page.click('.menu-button');
    await page.click('.nav-drawer .nav-item[data-nav-id="clone"]');
    await page.waitForSelector('.dock-panel[data-route="/clone"]');
    await page.waitForSelector('.nav-drawer', { state: 'detached' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    // Every top-bar target takes a finger (40×40); the theme, with no room in the bar, is in the account menu.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.top-bar button')]
        .map((b) => ({ name: b.getAttribute('aria-label') ?? b.textContent, box: b.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && (box.width < 40 || box.height < 40))
        .map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);
    expect(await page.isVisible('[data-testid=theme-toggle]')).toBe(false);
    const dark = () => page.evaluate(() => document.body.classList.contains('app-dark'));
    const before = await dark();
    await page.click('[data-testid=account-button]');
    await page.click('[data-testid=account-theme-toggle]');
    await until(dark, (d) => d !== before, 5000);
    await page.context().close();
  });
});

describe('account popover', () => {
  it('logs out: the token is removed on the server too', async () => {
    const { page } = await loggedInPage('/home');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aisa.token')!));
    await page.click('[data-testid=account-button]');
    await page.click('[data-testid=account-popover] >> text=退出登录');
    await page.waitForSelector('[data-testid=login-submit]');
    expect(await page.evaluate(() => localStorage.getItem('aisa.token'))).toBeNull();
    expect((await new ApiTestClient(server.url, token).call(API.account.profile, {})).code).toBe(100);
    await page.context().close();
  });

  it('changes the password with the spec messages, then asks to log in again', async () => {
    await server.admin('user', 'create', '--username', '13800138001', '--password', 'old123');
    const { page } = await newPage();
    await page.goto(`${server.url}/#/works`);
    await fillLogin(page, '13800138001', 'old123');
    await page.waitForSelector('.dock-panel');
    await page.click('[data-testid=account-button]');
    await page.click('[data-testid=account-popover] >> text=修改密码');
    await page.waitForSelector('#pwd-old');
    const expectToast = (m: string) => page.waitForFunction((msg) => [...document.querySelectorAll('.bp6-toast')].some((t) => t.textContent?.includes(msg)), m);
    await page.click('[data-testid=password-submit]');
    await expectToast(MSG.oldPasswordRequired);
    // One field more at each submit: the form names what is still missing or wrong.
    for (const [field, value, message] of [
      ['#pwd-old', 'old123', MSG.newPasswordRequired],
      ['#pwd-new', 'new456', MSG.confirmPasswordRequired],
      ['#pwd-confirm', 'new457', MSG.passwordMismatch],
    ] as const) {
      await page.fill(field, value);
      await page.click('[data-testid=password-submit]');
      await expectToast(message);
    }
    await page.fill('#pwd-confirm', 'new456');
    await page.click('[data-testid=password-submit]');
    await page.waitForSelector('[data-testid=login-submit]');
    expect(decodeURIComponent(hashPath(page))).toBe('/login?redirectUrl=/works');
    await fillLogin(page, '13800138001', 'new456');
    await page.waitForSelector('.dock-panel[data-route="/works"]');
    await page.context().close();
  });
});

describe('protocol page', () => {
  it('shows the operator text with scripts and handlers removed', async () => {
    await server.admin('site', 'set', 'privacy_agreement=<h2>隐私条款正文</h2><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">');
    const { page } = await newPage();
    await page.goto(`${server.url}/#/protocol?type=privacy`);
    await page.waitForSelector('text=隐私条款正文');
    // A handler left on the broken image would have run by the time it has failed to load.
    await imagesDone(page, '.protocol-content');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.protocol-content img').getAttribute('onerror')).toBeNull();
    await page.context().close();
  });
});
