/**
 * Browser journeys of the credits plugin: the points, VIP, space and notice popovers, redemption, space expansion,
 * /consum and /moreCredits, against the real server in Debian's Chromium.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { addDays, chinaToday, formatCredits, vipStatus } from '../../src/plugins/credits/format';
import { ApiTestClient } from '../support/app';
import { PHONE_VIEWPORT, imagesDone, settled } from '../support/browser';
import { hashPath, runCommand, useJourney, type PageOptions } from '../support/journey';

const REDEEMER = '13900000001';
const EXPANDER = '13900000002';
const NEWCOMER = '13900000003';
const READER = '13900000004';

const journey = useJourney({ users: { [REDEEMER]: 1000, [EXPANDER]: LIMITS.spaceExpandCredits * 3, [NEWCOMER]: 0, [READER]: 10 } });
const { server, newPage, apiClient: apiLogin } = journey;
let tmp: string;

beforeAll(() => {
  tmp = journey.mediaDir();
});

async function codes(credits: number, count = 1): Promise<string[]> {
  const out = await server.admin('code', 'create', '--credits', String(credits), '--count', String(count));
  return out.split('\n').map((l) => l.trim()).filter(Boolean);
}

async function loggedInPage(username: string, route = '/home', options: PageOptions = {}) {
  const opened = await journey.loggedInPage(username, route, options);
  await opened.page.waitForSelector('[data-testid=points-button]');
  return opened;
}

/** A page that already holds a session token (a guest made through the API). */
async function pageWithToken(token: string, route = '/home') {
  const { page, context } = await newPage();
  await context.addInitScript((t) => localStorage.setItem('aisa.token', JSON.stringify(t)), token);
  await page.goto(`${server.url}/#${route}`);
  await page.waitForSelector('[data-testid=points-button]');
  return { page, context };
}

/** Some toast (not only the latest) says `message`. */
function toast(page: Page, message: string) {
  return page.waitForFunction((m) => [...document.querySelectorAll('.bp6-toast')].some((t) => t.textContent?.includes(m)), message, { timeout: 10_000 });
}

/** A new account's `route` shows its empty state and a total of 0. */
async function expectEmpty(route: string, empty: string, total: string) {
  const { page, context } = await loggedInPage(NEWCOMER, route);
  await page.waitForSelector(`[data-testid=${empty}]`);
  expect(await page.innerText(`[data-testid=${total}]`)).toBe('0');
  await context.close();
}

async function pointsText(page: Page) {
  return (await page.innerText('[data-testid=points-button]')).trim();
}

describe('notice centre', () => {
  it('says 暂无公告！ when there are none', async () => {
    const { page, context } = await loggedInPage(READER);
    expect(await page.locator('[data-testid=notice-button-badge]').count()).toBe(0);
    await page.click('[data-testid=notice-button]');
    await page.waitForSelector(`[data-testid=notice-empty] >> text=${MSG.noNotices}`);
    await context.close();
  });

  it('lists notices with unread marks, opens one sanitized, and marks it read', async () => {
    const html = path.join(tmp, 'notice.html');
    fs.writeFileSync(
      html,
      '<h3>维护说明</h3><p>正文第一段</p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned=3">链接</a>',
    );
    // `npm run admin -- notice add` is the operator call admin.noticeAdd, sent to the running server.
    await server.admin('notice', 'add', '--title', '系统维护公告', '--desc', '今晚 2:00 维护', '--content-file', html);
    await server.admin('notice', 'add', '--title', '新功能上线', '--desc', '多场景视频支持批量生成');

    const { page, context } = await loggedInPage(READER);
    await page.waitForSelector('[data-testid=notice-button-badge] >> text=2');
    await page.click('[data-testid=notice-button]');
    await page.waitForSelector('[data-testid=notice-list]');
    const items = page.locator('[data-testid=notice-item]');
    expect(await items.count()).toBe(2);
    expect(await page.locator('[data-testid=notice-item].unread').count()).toBe(2);
    expect(await items.first().innerText()).toContain('新功能上线'); // newest first

    await page.click('[data-testid=notice-item] >> text=系统维护公告');
    await page.waitForSelector('.credits-notice-content >> text=正文第一段');
    // A handler left on the broken image would have run by the time it has failed to load.
    await imagesDone(page, '.credits-notice-content');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.credits-notice-content script').count()).toBe(0);
    expect(await page.locator('.credits-notice-content [onerror]').count()).toBe(0);
    expect(await page.locator('.credits-notice-content a').getAttribute('href')).toBeNull();
    expect(await page.innerText('.credits-notice-dialog .bp6-dialog-header')).toContain('系统维护公告');
    await page.click('.credits-notice-dialog >> text=知道了');
    await page.waitForSelector('.credits-notice-dialog', { state: 'detached' });

    await page.waitForSelector('[data-testid=notice-button-badge] >> text=1');
    await page.click('[data-testid=notice-button]');
    await page.waitForSelector('[data-testid=notice-list]');
    expect(await page.locator('[data-testid=notice-item].unread').count()).toBe(1);
    expect(await page.locator('[data-testid=notice-item].unread').innerText()).toContain('新功能上线');

    // The server remembers it: a fresh load shows one unread.
    const client = await apiLogin(READER);
    const list = (await client.call(API.notice.list, {})).data.list as { title: string; read: number }[];
    expect(list.find((n) => n.title === '系统维护公告')?.read).toBe(1);
    await context.close();
  });

  it('opens from the palette command and with g n', async () => {
    const { page, context } = await loggedInPage(READER);
    await runCommand(page, '打开公告');
    await page.waitForSelector('[data-testid=notice-popover]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=notice-popover]', { state: 'detached' });
    await page.click('.dock-panel');
    await page.keyboard.press('g');
    await page.keyboard.press('n');
    await page.waitForSelector('[data-testid=notice-popover]');
    await context.close();
  });
});

describe('points popover and redemption', () => {
  it('shows the balance, the rules, and links to /consum and /moreCredits', async () => {
    const { page, context } = await loggedInPage(REDEEMER);
    expect(await pointsText(page)).toBe('1,000');
    await page.click('[data-testid=points-button]');
    await page.waitForSelector('[data-testid=points-popover]');
    expect(await page.innerText('[data-testid=points-balance]')).toContain('1,000');
    await page.waitForSelector('[data-testid=points-rule] .credits-rule-body');
    await page.click('[data-testid=points-popover] >> text=积分明细');
    await page.waitForSelector('[data-testid=more-credits-panel]');
    expect(hashPath(page)).toBe('/moreCredits');
    await page.click('[data-testid=points-button]');
    await page.click('[data-testid=points-popover] >> text=消费中心');
    await page.waitForSelector('[data-testid=consum-panel]');
    expect(hashPath(page)).toBe('/consum');
    await context.close();
  });

  it('redeems a code: two success toasts and the new balance; a bad or empty code gets the server message', async () => {
    const [code] = await codes(100);
    const { page, context } = await loggedInPage(REDEEMER);
    await page.click('[data-testid=points-button]');
    await page.click('[data-testid=points-redeem]');
    await page.waitForSelector('#redeem-code');

    // Not validated here: an empty code goes to the server, which answers.
    await page.click('[data-testid=redeem-submit]');
    await toast(page, MSG.registerCodeRequired);
    await page.fill('#redeem-code', 'NOT-A-CODE');
    await page.click('[data-testid=redeem-submit]');
    await toast(page, MSG.codeInvalid);
    expect(await page.isVisible('#redeem-code')).toBe(true);

    await page.fill('#redeem-code', code!);
    await page.click('[data-testid=redeem-submit]');
    await toast(page, MSG.redeemSucceeded);
    await toast(page, MSG.redeemedCredits(100));
    await page.waitForSelector('#redeem-code', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid=points-button]')?.textContent?.includes('1,100'));
    await context.close();
  });

  it('opens the redeem dialog from the palette', async () => {
    const { page, context } = await loggedInPage(REDEEMER);
    await runCommand(page, '兑换积分');
    await page.waitForSelector('#redeem-code');
    await context.close();
  });

  it('sends a guest who wants to redeem to registration (/login?state=2); a guest cannot expand space', async () => {
    await server.admin('site', 'set', 'guest_credits=30');
    const guest = await new ApiTestClient(server.url).call(API.credits.tourist, {});
    expect(guest.code).toBe(0);
    const { page, context } = await pageWithToken(guest.data.token);
    await page.click('[data-testid=space-button]');
    await page.waitForSelector(`[data-testid=space-popover] >> text=${MSG.guestCannotExpand}`);
    expect(await page.locator('[data-testid=space-expand]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.click('[data-testid=points-button]');
    await page.click('[data-testid=points-redeem]');
    await page.waitForFunction(() => location.hash.startsWith('#/login'));
    expect(hashPath(page)).toBe('/login?state=2');
    await context.close();
  });
});

describe('VIP popover', () => {
  it('states the membership from expire_time', async () => {
    const { page, context } = await loggedInPage(NEWCOMER);
    const profile = (await (await apiLogin(NEWCOMER)).call(API.account.profile, {})).data as { expire_time: string };
    await page.click('[data-testid=vip-button]');
    const text = await page.innerText('[data-testid=vip-status]');
    if (!profile.expire_time) expect(text).toBe('暂未开通会员');
    else if (Date.parse(`${profile.expire_time.replace(' ', 'T')}+08:00`) > Date.now()) expect(text).toBe(`会员有效期至 ${profile.expire_time.slice(0, 16)}`);
    else expect(text).toBe('会员已过期');
    await context.close();
  });
});

describe('space', () => {
  it('expands after confirmation, says 已取消扩容 on cancel, and stops at the cap', async () => {
    await server.admin('site', 'set', 'space_base_gb=1', 'space_max_gb=11');
    const { page, context } = await loggedInPage(EXPANDER);
    await page.click('[data-testid=space-button]');
    await page.waitForSelector('[data-testid=space-total] >> text=1GB');
    await page.click('[data-testid=space-expand]');
    await page.waitForSelector('[data-testid=expand-confirm]');
    expect(await page.innerText('[data-testid=expand-confirm]')).toContain(`${LIMITS.spaceExpandGb}GB`);
    expect(await page.innerText('[data-testid=expand-confirm]')).toContain(formatCredits(LIMITS.spaceExpandCredits));
    await page.click('.bp6-alert-footer >> text=取消');
    await toast(page, MSG.spaceExpandCancelled);

    await page.click('[data-testid=space-button]');
    await page.click('[data-testid=space-expand]');
    await page.click('.bp6-alert-footer >> text=确认扩容');
    await toast(page, MSG.ok);
    await page.waitForFunction(() => document.querySelector('[data-testid=points-button]')?.textContent?.includes('10,000'));
    await page.click('[data-testid=space-button]');
    await page.waitForSelector('[data-testid=space-total] >> text=6GB');

    // The operator lowers the cap while the popover still offers 扩容: the server refuses.
    await server.admin('site', 'set', 'space_max_gb=6');
    await page.click('[data-testid=space-expand]');
    await page.click('.bp6-alert-footer >> text=确认扩容');
    await toast(page, MSG.spaceExpandAtLimit);
    await page.click('[data-testid=space-button]');
    await page.waitForSelector(`[data-testid=space-popover] >> text=${MSG.spaceExpandAtLimit}`);
    expect(await page.isDisabled('[data-testid=space-expand]')).toBe(true);
    expect(await pointsText(page)).toBe('10,000');
    await context.close();
  });
});

describe('/consum', () => {
  it('lists usage with signs and colours, draws the daily chart, and pages', async () => {
    const client = await apiLogin(REDEEMER);
    for (const code of await codes(1, 11)) expect((await client.call(API.credits.cdkey, { code })).code).toBe(0);
    await server.admin('site', 'set', 'space_max_gb=50');
    await server.admin('code', 'create', '--credits', '5000').then((c) => client.call(API.credits.cdkey, { code: c.trim() }));
    expect((await client.call(API.credits.spaceExpand, {})).code).toBe(0);

    const { page, context } = await loggedInPage(REDEEMER, '/consum');
    await page.waitForSelector('[data-testid=log-table]');
    const today = chinaToday();
    expect(await page.inputValue('[data-testid=range-start]')).toBe(addDays(today, -29));
    expect(await page.inputValue('[data-testid=range-end]')).toBe(today);
    expect(await page.getAttribute('[data-testid=range-end]', 'max')).toBe(today);
    const total = await page.innerText('[data-testid=log-total]');
    expect(Number(/\d+/.exec(total)![0])).toBeGreaterThan(10);
    expect(await page.locator('[data-testid=log-table] tbody tr').count()).toBe(10);
    const spend = page.locator('[data-testid=log-table] td.credits-amount.spend').first();
    expect(await spend.innerText()).toBe(`-${formatCredits(LIMITS.spaceExpandCredits)}`);
    expect(await page.locator('[data-testid=log-table] td.credits-amount.grant').first().innerText()).toMatch(/^\+/);
    const [red, green] = await Promise.all([
      spend.evaluate((el) => getComputedStyle(el).color),
      page.locator('[data-testid=log-table] td.credits-amount.grant').first().evaluate((el) => getComputedStyle(el).color),
    ]);
    expect(red).not.toBe(green);

    await page.waitForSelector('[data-testid=spend-chart] canvas');
    await page.click('[data-testid=log-next]');
    await page.waitForSelector('[data-testid=log-pager] >> text=第 2 /');
    expect(await page.locator('[data-testid=log-table] tbody tr').count()).toBeGreaterThan(0);

    await page.click('.credits-shortcuts >> text=近7天');
    expect(await page.inputValue('[data-testid=range-start]')).toBe(addDays(today, -6));
    expect(await page.inputValue('[data-testid=range-end]')).toBe(today);
    await page.waitForSelector('[data-testid=log-pager] >> text=第 1 /');

    // No future dates: a typed future end comes back to today.
    await page.fill('[data-testid=range-end]', addDays(today, 30));
    expect(await page.inputValue('[data-testid=range-end]')).toBe(today);

    // A past range with nothing in it shows finished empty states.
    await page.fill('[data-testid=range-start]', '2020-01-01');
    await page.fill('[data-testid=range-end]', '2020-01-31');
    await page.waitForSelector('[data-testid=log-empty]');
    await page.waitForSelector('[data-testid=chart-empty]');
    await context.close();
  });

  it('shows an empty chart state for a new account', () => expectEmpty('/consum', 'chart-empty', 'consum-credits'));
});

describe('/moreCredits', () => {
  it('lists unexpired batches and their total', async () => {
    const client = await apiLogin(READER);
    const expiry = (await client.call(API.credits.expiry, {})).data as { details: unknown[]; total: number };
    const { page, context } = await loggedInPage(READER, '/moreCredits');
    await page.waitForSelector('[data-testid=expiry-table]');
    expect(await page.locator('[data-testid=expiry-table] tbody tr').count()).toBe(expiry.details.length);
    expect(await page.innerText('[data-testid=expiry-total]')).toBe(formatCredits(expiry.total));
    expect(expiry.total).toBe(10);
    await context.close();
  });

  it('has a finished empty state', () => expectEmpty('/moreCredits', 'expiry-empty', 'expiry-total'));
});

describe('phone width', () => {
  it('keeps the buttons icon-only but the balance, and every popover inside the screen', async () => {
    const { page, context } = await loggedInPage(READER, '/home', { viewport: PHONE_VIEWPORT });
    // The balance is the one figure a phone user checks at a glance: it keeps its number.
    await page.waitForSelector('[data-testid=points-button] .credits-top-label');
    expect(await page.innerText('[data-testid=points-button] .credits-top-label')).toBe(formatCredits(10));
    // Under 400 px the membership line moves from the bar into the account menu, so the other targets keep 40 px.
    expect(await page.isVisible('[data-testid=vip-button]')).toBe(false);
    await page.click('[data-testid=account-button]');
    const profile = (await (await apiLogin(READER)).call(API.account.profile, {})).data as { expire_time: string };
    expect(await page.innerText('[data-testid=account-meta]')).toBe(vipStatus(profile.expire_time).text);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=account-popover]', { state: 'detached' });
    for (const id of ['points', 'space', 'notice']) {
      const button = page.locator(`[data-testid=${id}-button]`);
      const label = button.locator('.bp6-button-text');
      if (id !== 'points' && (await label.count())) expect(await label.isVisible()).toBe(false);
      const b = (await button.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      await button.click();
      const pop = page.locator(`[data-testid=${id}-popover]`);
      await pop.waitFor();
      await settled(page, `[data-testid=${id}-popover]`); // the opening transition scales the popover
      const box = (await pop.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(8);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width - 8);
      await page.keyboard.press('Escape');
      await pop.waitFor({ state: 'detached' });
    }
    await page.evaluate(() => (location.hash = '#/consum'));
    await page.waitForSelector('[data-testid=consum-panel]');
    await settled(page, '[data-testid=consum-panel] *');
    expect(await page.evaluate(() => document.querySelector('[data-testid=consum-panel]')!.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('nothing in the workbench overflows the screen horizontally', async () => {
    const { page, context } = await loggedInPage(READER, '/home', { viewport: PHONE_VIEWPORT });
    await page.waitForSelector('[data-testid=points-button] .credits-top-label');
    await settled(page, '.top-bar *');
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, bar: document.querySelector('.top-bar')!.scrollWidth, screen: window.innerWidth }));
    expect(widths.bar).toBeLessThanOrEqual(widths.screen);
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    await context.close();
  });
});
