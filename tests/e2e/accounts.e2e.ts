import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { ApiTestClient } from '../support/app';
import { lastToast } from '../support/browser';
import { hashPath, useJourney } from '../support/journey';

const { server, newPage } = useJourney();

const token = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('aisa.token') ?? 'null') as string | null);
const code = async (credits: number) => (await server.admin('code', 'create', '--credits', String(credits))).trim();
const toastWith = (page: Page, text: string) =>
  page.waitForFunction((m) => [...document.querySelectorAll('.bp6-toast')].some((t) => t.textContent?.includes(m)), text);

async function register(page: Page, username: string, password: string, redeem: string) {
  await page.waitForSelector('#reg-code');
  await page.fill('#reg-username', username);
  await page.fill('#reg-password', password);
  await page.fill('#reg-code', redeem);
  await page.click('.login-agreement .bp6-control-indicator');
  await page.click('[data-testid=register-submit]');
}

describe('registration by redemption code', () => {
  it('checks the phone number, then registers, lands logged in and has the code\'s credits', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login?state=2`);
    await register(page, '12345', 'pass12', 'ANY');
    expect(await lastToast(page)).toBe(MSG.registerPhoneInvalid);
    const redeem = await code(321);
    await page.fill('#reg-username', '13912345678');
    await page.fill('#reg-code', redeem);
    await page.click('[data-testid=register-submit]');
    await toastWith(page, MSG.registerSucceeded);
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    const me = await new ApiTestClient(server.url, (await token(page))!).call(API.account.profile, {});
    expect(me.data).toMatchObject({ username: '13912345678', credits: 321, is_tourist: 0 });
    await page.context().close();
  });

  it('shows the server\'s message for a used code and stays on the form', async () => {
    const redeem = await code(10);
    await new ApiTestClient(server.url).call(API.credits.cdkey, { username: '13912345000', password: 'pass12', code: redeem });
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login?state=2`);
    await register(page, '13912345001', 'pass12', redeem);
    await toastWith(page, MSG.codeInvalid);
    expect(hashPath(page)).toBe('/login?state=2');
    expect(await token(page)).toBeNull();
    await page.context().close();
  });
});

describe('guests', () => {
  it('hides the guest entry until the operator grants guest credits', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login`);
    await page.waitForSelector('[data-testid=login-submit]');
    expect(await page.locator('[data-testid=guest-entry]').count()).toBe(0);
    await page.context().close();
  });

  it('enters as a guest, sees 立即登录, and registering keeps the same account and its credits', async () => {
    await server.admin('site', 'set', 'guest_credits=30');
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login`);
    await page.click('.login-agreement .bp6-control-indicator');
    await page.click('[data-testid=guest-entry]');
    await page.waitForSelector('.dock-panel[data-route="/home"]');
    const guestToken = (await token(page))!;
    const guest = (await new ApiTestClient(server.url, guestToken).call(API.account.profile, {})).data;
    expect(guest).toMatchObject({ is_tourist: 1, credits: 30 });

    await page.click('[data-testid=account-button]');
    await page.waitForSelector('[data-testid=account-popover]');
    expect(await page.locator('[data-testid=account-popover] >> text=切换账号').count()).toBe(0);
    await page.click('[data-testid=account-popover] >> text=立即登录');
    await page.waitForSelector('#reg-code');
    expect(hashPath(page)).toBe('/login?state=2');

    const redeem = await code(100);
    await register(page, '13912340000', 'pass12', redeem);
    await toastWith(page, MSG.registerSucceeded);
    await page.waitForSelector('.dock-panel');
    const me = await new ApiTestClient(server.url, (await token(page))!).call(API.account.profile, {});
    expect(me.data).toMatchObject({ username: '13912340000', is_tourist: 0, credits: 130 });
    expect((await new ApiTestClient(server.url, guestToken).call(API.account.profile, {})).code).toBe(100);
    await page.context().close();
  });
});

describe('login captcha', () => {
  it('after repeated wrong passwords the form shows the server-made captcha picture, and another on a click', async () => {
    for (let i = 0; i < LIMITS.loginMaxFailuresPerAccount; i++) {
      await new ApiTestClient(server.url).call(API.account.login, { username: '13912349999', password: `wrong${i}` });
    }
    const { page } = await newPage();
    await page.goto(`${server.url}/#/login`);
    await page.fill('#login-username', '13912349999');
    await page.fill('#login-password', 'wrong9');
    await page.click('.login-agreement .bp6-control-indicator');
    await page.click('[data-testid=login-submit]');
    await toastWith(page, MSG.captchaRequired);
    // A real PNG from the server, drawn at the spec's size.
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid=captcha-image]')?.naturalWidth ?? 0) > 0);
    const size = await page.$eval('[data-testid=captcha-image]', (img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
    expect(size).toEqual([LIMITS.captcha.width, LIMITS.captcha.height]);
    // Another picture on a click.
    const first = await page.$eval('[data-testid=captcha-image]', (img) => (img as HTMLImageElement).src);
    await page.click('[data-testid=captcha-image]');
    await page.waitForFunction((src) => document.querySelector<HTMLImageElement>('[data-testid=captcha-image]')?.src !== src, first);
    expect(hashPath(page)).toBe('/login');
    expect(await token(page)).toBeNull();
    await page.context().close();
  });
});
