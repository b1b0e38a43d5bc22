/**
 * Journeys of /home (public avatars and voices, paging, footer), /use (tutorials) and /store (the tool launcher),
 * against the real server with real media published through the operator calls.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG, findRoute, type Avatar, type GuideCategory, type Voice } from '../../src/contract';
import { escapeDialog, frames, imagesDone, lastToast, PHONE_VIEWPORT, horizontalOverflow } from '../support/browser';
import { hashPath, searchPalette, useJourney, type PageOptions } from '../support/journey';
import { makeAudio, makeImage, makeVideo } from '../support/media';

const USERNAME = '13800000000';
const HOME = '.dock-panel[data-route="/home"]';

const journey = useJourney({ users: [USERNAME] });
const { server, operator, mediaDir } = journey;
const apiClient = () => journey.apiClient(USERNAME);
const loggedInPage = (route: string, options: PageOptions = {}) => journey.loggedInPage(USERNAME, route, options);

const count = (page: Page, selector: string) => page.locator(selector).count();
const waitCount = (page: Page, selector: string, n: number) =>
  page.waitForFunction(([s, k]) => document.querySelectorAll(s as string).length === k, [selector, n] as const);

/**
 * Every element of the open panels stays inside the viewport's width, and no panel scroller is wider than itself
 * (content cut off by overflow-x: hidden counts too). The shell's own top bar is the shell's business.
 */
const overflowing = (page: Page) => horizontalOverflow(page, '.home-panel, .guide-panel, .store-panel', '.dock-panel *');

describe('before anything is published', () => {
  it('home shows finished empty states for both tabs, and /use says there are no tutorials', async () => {
    const { page, context } = await loggedInPage('/home');
    await page.waitForSelector(`${HOME} [data-testid=home-banner] >> text=创建视频`);
    await page.waitForSelector(`${HOME} [data-testid=list-empty] >> text=暂无竖屏公共数字人`);
    await page.click('[data-testid=orientation] >> text=横屏');
    await page.waitForSelector(`${HOME} [data-testid=list-empty] >> text=暂无横屏公共数字人`);
    await page.click(`${HOME} .bp6-tab >> text=公共声音`);
    await page.waitForSelector(`${HOME} [data-testid=list-empty] >> text=暂无公共声音`);
    expect(await count(page, `${HOME} [data-testid=list-end]`)).toBe(0);

    await page.evaluate(() => (location.hash = '#/use'));
    await page.waitForSelector('.dock-panel[data-route="/use"] [data-testid=guide-empty] >> text=暂无教程');
    await context.close();
  });
});

describe('with published avatars, voices, guides and site settings', () => {
  let portrait: Avatar[] = [];
  let landscape: Avatar[] = [];
  let voices: Voice[] = [];
  let guides: GuideCategory[] = [];

  beforeAll(async () => {
    const dir = mediaDir();
    const portraitVideo = makeVideo(path.join(dir, 'portrait.mp4'), { width: 360, height: 640, seconds: 2 });
    const landscapeVideo = makeVideo(path.join(dir, 'landscape.mp4'), { width: 640, height: 360, seconds: 2 });
    const portraitCover = makeImage(path.join(dir, 'portrait.png'), { width: 360, height: 640 });
    const landscapeCover = makeImage(path.join(dir, 'landscape.png'), { width: 640, height: 360 });
    const voiceShort = makeAudio(path.join(dir, 'short.mp3'), { seconds: 1 });
    const voiceLong = makeAudio(path.join(dir, 'long.mp3'), { seconds: 30 });

    for (let i = 1; i <= 25; i++) await operator(API.admin.publicAvatarAdd, { name: `竖屏主播${i}`, orientation: 2, video: portraitVideo, cover: portraitCover });
    for (let i = 1; i <= 2; i++) await operator(API.admin.publicAvatarAdd, { name: `横屏主播${i}`, orientation: 1, video: landscapeVideo, cover: landscapeCover });
    await operator(API.admin.publicVoiceAdd, { name: '知性女声', audio: voiceLong });
    await operator(API.admin.publicVoiceAdd, { name: '沉稳男声', audio: voiceLong });
    await operator(API.admin.publicVoiceAdd, { name: '短句试听', audio: voiceShort });
    await operator(API.admin.guideAdd, { category: '新手入门', name: '三分钟上手数字人', cover: landscapeCover, video: landscapeVideo });
    await operator(API.admin.guideAdd, { category: '新手入门', name: '克隆你的声音', cover: landscapeCover, video: landscapeVideo });
    await operator(API.admin.guideAdd, { category: '进阶技巧', name: '多场景创作', cover: landscapeCover, video: portraitVideo });
    await server.admin(
      'site', 'set',
      'icp=京ICP备12345678号-1',
      'gabeian=京公网安备 11010502030143号',
      'copyright=© 2026 超级分身科技',
      'diy_label=<b class="op-label">运营自定义标签</b><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">',
    );

    const api = await apiClient();
    const pub = (await api.call(API.avatars.publicList, { source: 2, page: 1, limit: 9999 })).data as { hlist: Avatar[]; slist: Avatar[] };
    portrait = pub.slist;
    landscape = pub.hlist;
    voices = (await api.call(API.voices.list, { source: 2, page: 1, limit: 9999 })).data.list;
    guides = (await api.call(API.guide.list, {})).data.list;
    expect(portrait).toHaveLength(25);
    expect(landscape).toHaveLength(2);
    expect(voices).toHaveLength(3);
  });

  it('switches tabs and orientation: portrait by default, landscape on the toggle, voices on the second tab', async () => {
    const { page, context } = await loggedInPage('/home');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 20);
    expect(await page.getAttribute(`${HOME} [data-testid=avatar-grid]`, 'data-orientation')).toBe('2');
    expect(await page.textContent(`${HOME} [data-testid=avatar-card] >> nth=0`)).toContain(portrait[0]!.name);
    expect(await page.getAttribute(`${HOME} [data-testid=avatar-card] >> nth=0 >> img`, 'src')).toBe(portrait[0]!.cover_small);

    await page.click('[data-testid=orientation] >> text=横屏');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 2);
    expect(await page.getAttribute(`${HOME} [data-testid=avatar-grid]`, 'data-orientation')).toBe('1');
    await page.waitForSelector(`${HOME} [data-testid=list-end] >> text=没有更多了`);
    expect(await page.textContent(`${HOME} [data-testid=avatar-grid]`)).toContain('横屏主播1');

    await page.click(`${HOME} .bp6-tab >> text=公共声音`);
    await waitCount(page, `${HOME} [data-testid=voice-card]`, 3);
    expect(await count(page, `${HOME} [data-testid=orientation]`)).toBe(0);
    expect(await page.textContent(`${HOME} [data-testid=voice-grid]`)).toContain('知性女声');

    await page.click(`${HOME} .bp6-tab >> text=公共数字人`);
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 2);
    await page.click('[data-testid=orientation] >> text=竖屏');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 20);
    await context.close();
  });

  it('pages: 20 portrait avatars, 5 more after scrolling to the bottom, then 没有更多了', async () => {
    const { page, context } = await loggedInPage('/home');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 20);
    // The bottom check that follows a page's arrival has run (leading edge, in the effects of the render that
    // showed it); had it asked for more, the row saying so would be up by now.
    await frames(page);
    expect(await count(page, `${HOME} [data-testid=list-loading-more]`)).toBe(0);
    expect(await count(page, `${HOME} [data-testid=avatar-card]`)).toBe(20);
    expect(await count(page, `${HOME} [data-testid=list-end]`)).toBe(0);

    await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('[data-testid=home-panel]')!;
      el.scrollTop = el.scrollHeight;
    });
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 25);
    await page.waitForSelector(`${HOME} [data-testid=list-end] >> text=没有更多了`);
    const names = await page.locator(`${HOME} [data-testid=avatar-card] .home-avatar-name`).allTextContents();
    expect(names).toEqual(portrait.map((a) => a.name));
    await context.close();
  });

  it('plays an avatar in a dialog, and creates a video with it (id and hs)', async () => {
    const { page, context } = await loggedInPage('/home');
    const card = page.locator(`${HOME} [data-testid=avatar-card]`).nth(2);
    await card.hover();
    await card.locator('[data-testid=avatar-play]').click();
    const video = page.locator('.bp6-dialog [data-testid=avatar-video]');
    await video.waitFor();
    expect(await video.getAttribute('src')).toBe(portrait[2]!.url);
    expect(await page.textContent('.bp6-dialog .bp6-dialog-header')).toContain(portrait[2]!.name);
    // The file is really there and the browser reads it.
    await page.waitForFunction(() => (document.querySelector('[data-testid=avatar-video]') as HTMLVideoElement | null)?.readyState! >= 1);
    await page.click('.bp6-dialog >> text=关闭');
    await page.waitForSelector('.bp6-dialog', { state: 'detached' });

    await card.hover();
    await card.locator('[data-testid=avatar-create]').click();
    await page.waitForFunction(() => location.hash.startsWith('#/create'));
    expect(hashPath(page)).toBe(`/create?id=${portrait[2]!.id}&hs=2`);

    await page.click('.nav-item[data-nav-id="home"]');
    await page.click('[data-testid=orientation] >> text=横屏');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 2);
    const wide = page.locator(`${HOME} [data-testid=avatar-card]`).nth(1);
    await wide.hover();
    await wide.locator('[data-testid=avatar-create]').click();
    await page.waitForFunction((id) => location.hash === `#/create?id=${id}&hs=1`, landscape[1]!.id);

    await page.click('.nav-item[data-nav-id="home"]');
    await page.click(`${HOME} [data-testid=banner-customize]`);
    await page.waitForFunction(() => location.hash === '#/profile');
    await page.click('.nav-item[data-nav-id="home"]');
    await page.click(`${HOME} [data-testid=banner-create]`);
    await page.waitForFunction(() => location.hash === '#/create');
    await context.close();
  });

  it('plays a voice on click (state 3), one at a time, and stops on a second click or at the end (state 1)', async () => {
    const { page, context } = await loggedInPage('/home');
    await page.click(`${HOME} .bp6-tab >> text=公共声音`);
    await waitCount(page, `${HOME} [data-testid=voice-card]`, 3);
    const card = (name: string) => page.locator(`${HOME} [data-testid=voice-card]`, { hasText: name });
    const stateOf = (name: string) => card(name).getAttribute('data-state');

    // Keep a hand on the audio elements the page plays, to see that the sample really plays.
    await page.evaluate(() => {
      const played: HTMLMediaElement[] = ((window as unknown as { __played: HTMLMediaElement[] }).__played = []);
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        played.push(this);
        return play.call(this);
      };
    });
    expect(await stateOf('知性女声')).toBe('1');
    await card('知性女声').click();
    expect(await stateOf('知性女声')).toBe('3');
    await card('知性女声').locator('.home-voice-eq.on').waitFor();
    await page.waitForFunction(() => {
      const [audio] = (window as unknown as { __played: HTMLMediaElement[] }).__played;
      return !!audio && !audio.paused && audio.currentTime > 0.3;
    });
    expect(await page.evaluate(() => (window as unknown as { __played: HTMLMediaElement[] }).__played[0]!.src)).toContain(voices.find((v) => v.name === '知性女声')!.url);
    expect(await stateOf('知性女声')).toBe('3');

    await card('沉稳男声').click();
    expect(await stateOf('沉稳男声')).toBe('3');
    expect(await stateOf('知性女声')).toBe('1');
    expect(await count(page, `${HOME} [data-testid=voice-card][data-state="3"]`)).toBe(1);

    await card('沉稳男声').click();
    expect(await stateOf('沉稳男声')).toBe('1');
    expect(await count(page, `${HOME} [data-testid=voice-card][data-state="3"]`)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __played: HTMLMediaElement[] }).__played.every((a) => a.paused))).toBe(true);

    // A one-second sample ends by itself and the card returns to idle.
    await card('短句试听').click();
    expect(await stateOf('短句试听')).toBe('3');
    await page.waitForSelector(`${HOME} [data-testid=voice-card][data-state="1"]:has-text("短句试听")`, { timeout: 8000 });
    expect(await count(page, `${HOME} .bp6-toast`)).toBe(0);

    // Leaving the tab stops playback.
    await card('知性女声').click();
    expect(await stateOf('知性女声')).toBe('3');
    await page.click(`${HOME} .bp6-tab >> text=公共数字人`);
    await page.click(`${HOME} .bp6-tab >> text=公共声音`);
    expect(await stateOf('知性女声')).toBe('1');
    await context.close();
  });

  it('shows the footer: filings link out, and the operator label never runs scripts', async () => {
    const { page, context } = await loggedInPage('/home');
    const footer = `${HOME} [data-testid=home-footer]`;
    await page.waitForSelector(`${footer} .op-label >> text=运营自定义标签`);
    expect(await page.getAttribute(`${footer} [data-testid=footer-icp]`, 'href')).toBe('https://beian.miit.gov.cn/');
    expect(await page.textContent(`${footer} [data-testid=footer-icp]`)).toBe('京ICP备12345678号-1');
    expect(await page.getAttribute(`${footer} [data-testid=footer-gabeian]`, 'href')).toContain('11010502030143');
    expect(await page.textContent(footer)).toContain('© 2026 超级分身科技');
    // A handler left on the broken image would have run by the time it has failed to load.
    await imagesDone(page, footer);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await count(page, `${footer} script`)).toBe(0);
    expect(await page.locator(`${footer} img`).getAttribute('onerror')).toBeNull();
    await context.close();
  });

  it('/use lists the categories and plays a guide video in a dialog', async () => {
    const { page, context } = await loggedInPage('/use');
    const panel = '.dock-panel[data-route="/use"]';
    await waitCount(page, `${panel} [data-testid=guide-category]`, 2);
    expect(await page.locator(`${panel} .guide-section-title`).allTextContents()).toEqual(['新手入门', '进阶技巧']);
    await waitCount(page, `${panel} [data-testid=guide-card]`, 3);
    await page.click(`${panel} [data-testid=guide-card] >> text=多场景创作`);
    const video = page.locator('.bp6-dialog [data-testid=guide-video]');
    await video.waitFor();
    expect(await video.getAttribute('src')).toBe(guides[1]!.items[0]!.video_url);
    expect(await page.textContent('.bp6-dialog .bp6-dialog-header')).toContain('多场景创作');
    await escapeDialog(page);
    await page.waitForSelector('.bp6-dialog', { state: 'detached' });
    await context.close();
  });

  it('/store: every card and banner opens its route; 专属文案 only says it is coming soon', async () => {
    const { page, context } = await loggedInPage('/store');
    const panel = '.dock-panel[data-route="/store"]';
    await page.waitForSelector(`${panel} [data-testid=store-panel]`);
    expect(await page.locator(`${panel} .store-section-title`).allTextContents()).toEqual(['爆款文案', 'AI图片/视频', '提取文件', '音频处理']);
    const paths = await page.locator(`${panel} [data-testid=store-card]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths.filter(Boolean)).toHaveLength(10);

    for (const target of [...paths.filter((p): p is string => !!p), '/pet', '/store/imageSpeak']) {
      const selector = target === '/pet' || target === '/store/imageSpeak' ? `${panel} [data-testid=store-banner][data-path="${target}"]` : `${panel} [data-testid=store-card][data-path="${target}"]`;
      const title = findRoute(target)!.title;
      if (target !== '/pet') expect(await page.textContent(selector)).toContain(title);
      await page.click(selector);
      await page.waitForFunction((p) => location.hash === `#${p}`, target);
      await page.waitForSelector(`.dock-panel[data-route="${target}"]`);
      await page.click('.nav-item[data-nav-id="store"]');
      await page.waitForFunction(() => location.hash === '#/store');
    }

    const soon = page.locator(`${panel} [data-testid=store-card]`, { hasText: '专属文案' });
    expect(await soon.textContent()).toContain(MSG.comingSoonPanel);
    await soon.click();
    expect(await lastToast(page)).toBe(MSG.comingSoon);
    expect(hashPath(page)).toBe('/store');

    // The palette's section commands.
    await searchPalette(page, '创作商店：音频处理');
    await page.waitForSelector('.palette-item.active >> text=创作商店：音频处理');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash === '#/store?section=audio');
    await context.close();
  });

  it('opens the voices tab from the palette', async () => {
    const { page, context } = await loggedInPage('/store');
    await page.waitForSelector('.dock-panel[data-route="/store"] [data-testid=store-card]');
    await searchPalette(page, '首页：公共声音');
    await page.waitForSelector('.palette-item.active >> text=首页：公共声音');
    await page.keyboard.press('Enter');
    await waitCount(page, `${HOME} [data-testid=voice-card]`, 3);
    await context.close();
  });

  it('fits a phone (390x844): home on both tabs, the dialog, /use and /store never overflow sideways', async () => {
    const { page, context } = await loggedInPage('/home', { viewport: PHONE_VIEWPORT });
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 20);
    expect(await overflowing(page)).toEqual([]);
    // No hover on a phone: the card's buttons are reachable at once.
    await page.locator(`${HOME} [data-testid=avatar-card] >> nth=0 >> [data-testid=avatar-play]`).click();
    await page.locator('.bp6-dialog [data-testid=avatar-video]').waitFor();
    const dialog = await page.locator('.bp6-dialog').boundingBox();
    expect(dialog!.x).toBeGreaterThanOrEqual(0);
    expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await escapeDialog(page);
    await page.waitForSelector('.bp6-dialog', { state: 'detached' });

    await page.click('[data-testid=orientation] >> text=横屏');
    await waitCount(page, `${HOME} [data-testid=avatar-card]`, 2);
    expect(await overflowing(page)).toEqual([]);
    await page.click(`${HOME} .bp6-tab >> text=公共声音`);
    await waitCount(page, `${HOME} [data-testid=voice-card]`, 3);
    expect(await overflowing(page)).toEqual([]);

    for (const route of ['/use', '/store']) {
      await page.evaluate((r) => (location.hash = `#${r}`), route);
      await page.waitForSelector(`.dock-panel[data-route="${route}"] ${route === '/use' ? '[data-testid=guide-card]' : '[data-testid=store-card]'}`);
      expect(await overflowing(page)).toEqual([]);
    }
    await context.close();
  });
});
