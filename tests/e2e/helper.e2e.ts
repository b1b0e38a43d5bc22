/**
 * The 超级助手 (helper build, on a helper host) against a loopback chat-completions peer that asks for tools on cue:
 * asked to make a video from a script, the assistant checks the credits (a step shown as it happens), then stops at a
 * confirmation card with the price; confirmed, the work is made as the user and appears on /works. A request of three
 * scripts becomes a background task: one confirmation for the total, three works, the task list after a reload. With
 * SHOTS_DIR set, the three screens in both themes at desktop and phone width.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, estimateSeconds } from '../../src/contract';
import { LOOKS, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { makeSpeech, makeVideo } from '../support/media';
import { startOpenAiPeer, type OpenAiPeer, type PeerRequest } from '../support/peers/openai-peer';
import { publicAvatar, publicAvatars, trainedPublicVoices, useJourney } from '../support/journey';

const USER = '13800009501';
const AVATAR = '助手主播';
const VOICE = '助手女声';
const SCRIPTS = ['大家好，欢迎来到直播间。', '今天介绍一款新品。', '喜欢就点个关注吧。'];
const shoot = screenshots('helper');
const { server, appUrl, loggedInPage, apiClient, mediaDir } = useJourney({
  target: 'helper',
  users: { [USER]: 5000 },
  arrange: publicAvatars({ [AVATAR]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 360, height: 640, seconds: 3 }) }),
});
let peer: OpenAiPeer;
let avatarId = 0;
let voiceId = 0;
let channelCredits = 0;

/**
 * The model: "做成视频：<script>" checks the credits first, then asks for one work; "分别…：a；b；c" asks for a work of
 * each at once; a how-to question is answered in words.
 */
function agent(req: PeerRequest): { text: string } | { tools: { name: string; arguments: unknown }[] } {
  const answered = req.body.messages.some((m) => m.role === 'tool');
  const work = (text: string, n: number) => ({ name: 'works_create', arguments: { name: `助手视频${n}`, text, api: 'local', video_id: avatarId, user_voice_id: voiceId } });
  const [, scripts = ''] = req.user.split('：');
  if (req.user.includes('分别')) return answered ? { text: '已为你安排好，请确认。' } : { tools: scripts.split('；').map((s, i) => work(s, i + 1)) };
  if (req.user.includes('做成视频')) {
    if (!answered) return { tools: [{ name: 'account_credits', arguments: {} }] };
    if (req.body.messages.filter((m) => m.role === 'tool').length === 1) return { tools: [work(scripts, 0)] };
    return { text: '请确认后开始合成。' };
  }
  return { text: '在「开始创作」里选择数字人和声音，输入文案后点击生成即可。' };
}

beforeAll(async () => {
  peer = await startOpenAiPeer();
  peer.behave({ kind: 'agent', next: agent });
  await server.admin('site', 'set', `chat_base_url=${peer.url}`, `chat_api_key=${peer.apiKey}`);
  const speech = await makeSpeech(path.join(mediaDir(), 'voice.mp3'), '大家好，欢迎来到我的直播间。');
  await server.admin('voice', 'publish', speech, '--name', VOICE);
  const client = await apiClient(USER);
  avatarId = (await publicAvatar(client, AVATAR)).id;
  voiceId = (await trainedPublicVoices(client, VOICE)).find((v) => v.name === VOICE)!.id;
  channelCredits = (await client.call(API.works.videoChannel, {})).data.list.find((c: { api: string }) => c.api === 'local').credits;
}, 300_000);
afterAll(() => peer?.close());

const price = (text: string) => Math.ceil(estimateSeconds(text) * channelCredits);

/** The open panel of a route (the workbench keeps the others open beside it). */
const panel = (route: string) => `.dock-panel[data-route="${route}"]`;

async function ask(page: Page, question: string, route?: string) {
  const scope = route ? `${panel(route)} ` : '';
  await page.fill(`${scope}[data-testid=helper-input]`, question);
  await page.click(`${scope}[data-testid=helper-send]`);
}

/** The /works list shows a work of this name. */
async function onWorks(page: Page, name: string) {
  await page.goto(`${appUrl()}/#/works`);
  await page.waitForSelector(`.dock-panel[data-route="/works"] >> text=${name}`, { timeout: 30_000 });
}

describe('super helper', () => {
  it('answers a how-to question, streamed', async () => {
    const { page, context } = await loggedInPage(USER, '/helper/index');
    await ask(page, '怎么做一个数字人视频？');
    await page.waitForSelector('[data-testid=helper-answer] >> text=输入文案后点击生成即可');
    await context.close();
  });

  it('makes a video from a script: a step, the confirmation card with the price, confirm, the work on /works', async () => {
    const client = await apiClient(USER);
    const before = (await client.call(API.account.credits, {})).data.credits as number;
    const { page, context } = await loggedInPage(USER, '/helper/operation');
    await ask(page, `用我的分身做成视频：${SCRIPTS[0]}`);
    await page.waitForSelector('[data-testid=helper-step] >> text=查询积分');
    await page.waitForSelector('[data-testid=helper-step].done >> text=5000 积分');
    await page.waitForSelector('[data-testid=helper-confirm]');
    expect(await page.textContent('[data-testid=helper-price]')).toBe(`预计 ${price(SCRIPTS[0]!)} 积分`);
    // The card names the avatar, the voice and the script, not their ids.
    expect(await page.textContent('[data-testid=helper-item]')).toMatch(new RegExp(`助手视频0.*分身「${AVATAR}」.*声音「${VOICE}」.*文案「${SCRIPTS[0]}」`));
    // Nothing is spent before the confirmation.
    expect((await client.call(API.account.credits, {})).data.credits).toBe(before);
    await page.click('[data-testid=helper-confirm]');
    await page.waitForSelector('[data-testid=helper-item-state] >> text=已完成');
    expect((await client.call(API.account.credits, {})).data.credits).toBe(before - price(SCRIPTS[0]!));
    // The conversation is kept: after a reload it reopens from 历史对话 with its card as it stands now.
    await page.reload();
    await page.click('[data-testid=helper-history]');
    await page.click('[data-testid=helper-history-item] >> text=用我的分身做成视频');
    await page.waitForSelector('[data-testid=helper-question] >> text=用我的分身做成视频');
    await page.waitForSelector('[data-testid=helper-answer] [data-testid=helper-item-state] >> text=已完成');
    await page.click('[data-testid=helper-open-works]');
    await page.waitForSelector('.dock-panel[data-route="/works"] >> text=助手视频0', { timeout: 30_000 });
    await context.close();
  }, 120_000);

  it('runs three scripts as a background task: one total price, three works, the list after a reload', async () => {
    const { page, context } = await loggedInPage(USER, '/helper/asyncOperation');
    await ask(page, `把这 3 段文案分别用我的分身做成视频：${SCRIPTS.join('；')}`);
    await page.waitForSelector('[data-testid=helper-confirm]');
    expect(await page.locator('[data-testid=helper-answer] [data-testid=helper-item]').count()).toBe(3);
    expect(await page.textContent('[data-testid=helper-answer] [data-testid=helper-price]')).toBe(`预计 ${SCRIPTS.reduce((sum, s) => sum + price(s), 0)} 积分`);
    await page.click('[data-testid=helper-confirm]');
    await page.waitForSelector('[data-testid=helper-task]');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=helper-task] [data-testid=helper-item-state]')].filter((e) => e.textContent === '已完成').length === 3,
      undefined,
      { timeout: 60_000 },
    );
    await page.reload();
    await page.waitForSelector('[data-testid=helper-task] >> text=把这 3 段文案');
    expect(await page.locator('[data-testid=helper-task] [data-testid=helper-item-state]').allTextContents()).toEqual(['已完成', '已完成', '已完成']);
    for (const n of [1, 2, 3]) await onWorks(page, `助手视频${n}`);
    await context.close();
  }, 120_000);

  it('fits a phone and both themes', async () => {
    for (const { theme, phone } of LOOKS) {
      const look = `${theme}-${phone ? 'phone' : 'desktop'}`;
      const viewport = phone ? PHONE_VIEWPORT : undefined;
      const { page, context } = await loggedInPage(USER, '/helper/index', { theme, viewport });
      await ask(page, '怎么做一个数字人视频？');
      await page.waitForSelector('[data-testid=helper-answer] >> text=输入文案后点击生成即可');
      await shoot(page, `helper-index-${look}`);
      await page.goto(`${appUrl()}/#/helper/operation`);
      const operation = panel('/helper/operation');
      await page.waitForSelector(operation);
      await ask(page, `用我的分身做成视频：${SCRIPTS[1]}`, '/helper/operation');
      await page.waitForSelector(`${operation} [data-testid=helper-confirm]`);
      if (phone) expect(await horizontalOverflow(page, '.helper-page', '.helper-page *')).toEqual([]);
      await shoot(page, `helper-operation-${look}`);
      await page.click(`${operation} [data-testid=helper-decline]`);
      await page.waitForSelector(`${operation} [data-testid=helper-plan] >> text=已取消`);
      await page.click(`${operation} [data-testid=helper-history]`);
      // The menu's icons are drawn once their paths have loaded.
      await page.waitForSelector('[data-testid=helper-history-item] [data-testid=helper-history-remove] svg');
      await shoot(page, `helper-history-${look}`);
      await page.keyboard.press('Escape');
      await page.goto(`${appUrl()}/#/helper/asyncOperation`);
      await page.waitForSelector(`${panel('/helper/asyncOperation')} [data-testid=helper-task]`);
      if (phone) expect(await horizontalOverflow(page, '.helper-page', '.helper-page *')).toEqual([]);
      await shoot(page, `helper-tasks-${look}`);
      await context.close();
    }
  }, 180_000);
});
