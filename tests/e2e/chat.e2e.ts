/**
 * The copy chat (/store/aiChat) against a loopback streaming chat-completions peer: without an engine the screen says
 * so; a v3 answer streams and types out; stop mid-answer keeps what arrived; r1 shows its reasoning apart and folds it;
 * history reopen and delete (with confirmation); copy; save to material (then on /material/index); go create (the text
 * arrives in the /create editor); credits charged per answer. With SHOTS_DIR set, both themes at desktop and phone width.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, LIMITS, MSG } from '../../src/contract';
import { LOOKS, PHONE_VIEWPORT, frames, horizontalOverflow, screenshots } from '../support/browser';
import { startOpenAiPeer, type OpenAiPeer } from '../support/peers/openai-peer';
import { saysEngineMissing, toast, useJourney } from '../support/journey';
import { until } from '../support/wait';

const USER = '13800009301';
const shoot = screenshots('chat');
const { server, loggedInPage, apiClient } = useJourney({ users: { [USER]: 1000 } });
let peer: OpenAiPeer;

beforeAll(async () => {
  peer = await startOpenAiPeer();
});
afterAll(() => peer?.close());

const credits = async () => (await (await apiClient(USER)).call(API.account.credits, {})).data.credits as number;
const answerText = (page: Page) => page.locator('[data-testid=chat-answer-text]').last().innerText();

async function ask(page: Page, question: string) {
  await page.fill('[data-testid=chat-input] textarea, textarea[data-testid=chat-input]', question);
  await page.click('[data-testid=chat-send]');
}

describe('copy chat', () => {
  it('says plainly when the chat engine is not configured, and sending is disabled', async () => {
    const { page, context } = await loggedInPage(USER, '/store/aiChat');
    await saysEngineMissing(page, 'chat-engine-missing', MSG.chatEngineMissing, 'chat-send');
    await context.close();
    await server.admin('site', 'set', `chat_base_url=${peer.url}`, `chat_api_key=${peer.apiKey}`);
  });

  it('streams a v3 answer typed out, stops one mid-answer, shows r1 reasoning apart; copy, history, delete', async () => {
    const { page, context } = await loggedInPage(USER, '/store/aiChat');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const before = await credits();

    const answer = '大家好，欢迎来到直播间！今天给大家带来三款好物。';
    peer.behave({ kind: 'reply', text: answer, chunkChars: 6, chunkDelayMs: 10 });
    await ask(page, '写一段直播开场白');
    await page.waitForSelector('[data-testid=chat-question] >> text=写一段直播开场白');
    // Typed out: part of the answer shows before all of it (30 ms a character).
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid=chat-answer-text]')?.textContent ?? '';
      return text.length > 0 && text.length < 20;
    });
    await page.waitForSelector('[data-testid=chat-copy]');
    expect(await answerText(page)).toBe(answer);
    await page.click('[data-testid=chat-copy]');
    await toast(page, MSG.copySucceeded);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer);
    expect(await credits()).toBe(before - LIMITS.chatAnswerCredits);

    // Stop mid-answer: what arrived stays, the rest never comes.
    peer.behave({ kind: 'reply', text: '一二三四五六七八九十'.repeat(30), chunkChars: 2, chunkDelayMs: 60 });
    await ask(page, '写一篇很长的文案');
    await page.waitForSelector('[data-testid=chat-stop]');
    // Part of it has arrived (a few chunks of 2 characters).
    await page.waitForFunction(() => {
      const answers = document.querySelectorAll('[data-testid=chat-answer-text]');
      return (answers[answers.length - 1]?.textContent ?? '').length >= 6;
    });
    const aborted = peer.abortedStreams;
    await page.click('[data-testid=chat-stop]');
    await page.waitForSelector('[data-testid=chat-stop]', { state: 'detached' });
    const kept = await answerText(page);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(300);
    // The stream is over once the peer has seen it closed before its end: nothing more can arrive after that.
    expect(await until(async () => peer.abortedStreams, (n) => n > aborted, 10_000, 50)).toBe(aborted + 1);
    await frames(page);
    expect(await answerText(page)).toBe(kept);
    expect(await page.isEnabled('[data-testid=chat-model-r1]')).toBe(true);

    // r1: the reasoning shows apart while it streams, and folds once the answer starts.
    peer.behave({ kind: 'reply', text: '标题：三分钟学会做蛋糕', reasoning: '用户要一个标题，应简短有力，突出速度。', chunkChars: 2, chunkDelayMs: 80 });
    await page.click('[data-testid=chat-model-r1]');
    await ask(page, '给蛋糕教程起个标题');
    await page.waitForSelector('[data-testid=chat-reasoning-text]:visible');
    await page.waitForSelector('[data-testid=chat-copy] >> nth=2');
    expect(await answerText(page)).toBe('标题：三分钟学会做蛋糕');
    expect(await page.locator('[data-testid=chat-reasoning-text]').last().isVisible()).toBe(false);
    await page.click('[data-testid=chat-reasoning-toggle]');
    expect(await page.locator('[data-testid=chat-reasoning-text]').last().innerText()).toBe('用户要一个标题，应简短有力，突出速度。');
    await shoot(page, 'chat-desktop-r1');

    // A new conversation, then reopen the first from the history.
    peer.behave({ kind: 'reply', text: '第二个会话的回答' });
    await page.click('[data-testid=chat-new]');
    expect(await page.locator('[data-testid=chat-answer]').count()).toBe(0);
    await page.click('[data-testid=chat-model-v3]');
    await ask(page, '另一个话题');
    await page.waitForSelector('[data-testid=chat-copy]');
    await page.waitForSelector('[data-testid=chat-record] >> nth=1');
    await page.click('[data-testid=chat-record] >> text=写一段直播开场白');
    await page.waitForSelector('[data-testid=chat-question] >> text=给蛋糕教程起个标题');
    expect(await page.locator('[data-testid=chat-answer]').count()).toBe(3);
    expect(await page.locator('[data-testid=chat-answer-text]').first().innerText()).toBe(answer);
    // The reopened conversation goes on with the model its last answer used (r1), not the one left selected (v3).
    expect(await page.getAttribute('[data-testid=chat-model-r1]', 'aria-pressed')).toBe('true');
    await page.click('[data-testid=chat-record] >> text=另一个话题');
    await page.waitForSelector('[data-testid=chat-question] >> text=另一个话题');
    expect(await page.getAttribute('[data-testid=chat-model-v3]', 'aria-pressed')).toBe('true');

    // Delete with confirmation: cancelled once, then done.
    const records = page.locator('[data-testid=chat-record]');
    await records.filter({ hasText: '另一个话题' }).locator('button[aria-label=删除对话]').click();
    await page.click('.chat-alert button:has-text("取消")');
    await toast(page, MSG.deleteCancelled);
    expect(await records.count()).toBe(2);
    await records.filter({ hasText: '另一个话题' }).locator('button[aria-label=删除对话]').click();
    await page.click('.chat-alert button:has-text("删除")');
    await toast(page, MSG.deleteSucceeded);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chat-record]').length === 1);
    await context.close();
  });

  it('saves an answer to the material library and sends one to the /create editor', async () => {
    const { page, context } = await loggedInPage(USER, '/store/aiChat');
    peer.behave({ kind: 'reply', text: '春天来了，万物复苏，快来打卡吧！', chunkChars: 4 });
    await ask(page, '春季文案');
    await page.waitForSelector('[data-testid=chat-save]');
    await page.click('[data-testid=chat-save]');
    await toast(page, MSG.savedToMaterial);

    await page.goto(`${server.url}/#/material/index?type=text`);
    await page.waitForSelector('[data-testid=material-list] >> text=春天来了，万物复苏，快来打卡吧！');

    await page.goto(`${server.url}/#/store/aiChat`);
    await page.click('[data-testid=chat-record] >> text=春季文案');
    await page.waitForSelector('[data-testid=chat-create]');
    await page.click('[data-testid=chat-create]');
    await page.waitForSelector('[data-testid=create-panel]');
    await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await page.waitForFunction(() => (document.querySelector('.se-surface .view-lines')?.textContent ?? '').includes('春天来了'));
    await context.close();
  });

  it('fits a phone and both themes', async () => {
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await loggedInPage(USER, '/store/aiChat', { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      await page.click('[data-testid=chat-record] >> text=写一段直播开场白');
      await page.waitForSelector('[data-testid=chat-copy]');
      await page.click('[data-testid=chat-reasoning-toggle]');
      // Blueprint's Collapse ends its opening at height auto.
      await page.waitForFunction(() => document.querySelector<HTMLElement>('.chat-reasoning .bp6-collapse')?.style.height === 'auto');
      if (phone) expect(await horizontalOverflow(page, '.chat-messages, .chat-history', '.chat-page *')).toEqual([]);
      await shoot(page, `chat-${theme}-${phone ? 'phone' : 'desktop'}`);
      await context.close();
    }
  });
});
