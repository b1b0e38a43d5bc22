/**
 * Batch creation (/batch) against the real server: the template downloads (its headers are the contract's); three
 * rows filled in it, one with a voice name that does not exist, are uploaded; the grid shows that row's error with
 * the closest voice name; fixed in place, the batch is submitted, its three works finish on the batch page, and the
 * zip downloads with each row's mp4 and SRT named after it. Screenshots (SHOTS_DIR): the grid with an error and the batch
 * page, dark on a desktop and light on a 390 px phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import writeExcelFile from 'write-excel-file/node';
import { MSG } from '../../src/contract';
import { TEMPLATE_HEADERS } from '../../src/plugins/batch/batch-view';
import { LOOKS, PHONE_VIEWPORT, QUICK_THROTTLES, horizontalOverflow, screenshots } from '../support/browser';
import { publicAvatar, publicAvatars, toast, trainedPublicVoices, useJourney, type PageOptions } from '../support/journey';
import { makeSpeech, makeVideo } from '../support/media';
import { zipEntries } from '../support/zip';

const USERNAME = '13800009801';
const shoot = screenshots('batch');
const AVATAR = '公共主播·批量';
const VOICE = '公共·店长';
const WRONG_VOICE = '公共·店员';
const CHANNEL = '本地合成';
const ROWS = [
  ['门店一', '欢迎光临一号店。'],
  ['门店二', '欢迎光临二号店。'],
  ['门店三', '欢迎光临三号店。'],
] as const;

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  arrange: publicAvatars({ [AVATAR]: (dir) => makeVideo(path.join(dir, 'anchor.mp4'), { width: 640, height: 360, seconds: 3 }) }),
  users: { [USERNAME]: 10_000 },
  timings: { ...QUICK_THROTTLES, worksPollMs: 800 },
});
let dir: string;

beforeAll(async () => {
  dir = mediaDir();
  await server.admin('voice', 'publish', await makeSpeech(path.join(dir, 'owner.mp3'), '各位好，我是店长，欢迎光临本店。'), '--name', VOICE);
  const client = await apiClient(USERNAME);
  await trainedPublicVoices(client, VOICE);
  await publicAvatar(client, AVATAR);
}, 300_000);

async function openBatch(route = '/batch', options: PageOptions = {}) {
  const { page, context } = await loggedInPage(USERNAME, route, options);
  await page.waitForSelector('[data-testid=batch-panel]');
  return { page, context };
}

async function download(page: Page, button: string, saveAs: string): Promise<string> {
  const started = page.waitForEvent('download');
  await page.click(button);
  await (await started).saveAs(saveAs);
  return saveAs;
}

/** The template filled with the three rows, the second with a voice name that does not exist. */
async function filledTable(): Promise<string> {
  const file = path.join(dir, 'filled.xlsx');
  const rows = ROWS.map(([name, text], i) => [name, text, AVATAR, i === 1 ? WRONG_VOICE : VOICE, CHANNEL, '否', '']);
  await writeExcelFile([[...TEMPLATE_HEADERS], ...rows]).toFile(file);
  return file;
}

async function uploadWithError(page: Page, file: string) {
  await page.setInputFiles('[data-testid=batch-file]', file);
  await page.waitForSelector('[data-testid=batch-row][data-index="2"][data-error="1"]');
  await page.waitForSelector('[data-testid=batch-row][data-index="1"][data-error="0"]');
}

describe('batch creation', () => {
  it('template, three rows with one unknown voice, fix, submit, three works finish, zip of their files', { timeout: 300_000 }, async () => {
    const { page, context } = await openBatch();
    const template = await download(page, '[data-testid=batch-template-xlsx]', path.join(dir, 'template.xlsx'));
    expect((await readSheet(template))[0]).toEqual([...TEMPLATE_HEADERS]);

    await uploadWithError(page, await filledTable());
    expect(await page.locator('[data-testid=batch-row]').count()).toBe(3);
    const error = await page.textContent('[data-testid=batch-row-error]');
    expect(error).toBe(`第2行：${MSG.batchVoiceUnknown(WRONG_VOICE)}${MSG.batchClosest([VOICE])}`);
    expect(await page.isDisabled('[data-testid=batch-submit]')).toBe(true);

    await page.fill('[data-testid=batch-row][data-index="2"] [data-testid=batch-cell-voice]', VOICE);
    await page.waitForSelector('[data-testid=batch-row][data-index="2"][data-error="0"]');
    await page.waitForSelector('[data-testid=batch-submit]:not([disabled])');
    expect(Number(await page.getAttribute('[data-testid=batch-total]', 'data-credits'))).toBeGreaterThan(0);
    await page.fill('[data-testid=batch-name]', '三家门店');
    await page.click('[data-testid=batch-submit]');
    await toast(page, MSG.submitSucceeded);
    await page.waitForSelector('[data-testid=batch-page]');
    expect(await page.textContent('[data-testid=batch-page-name]')).toBe('三家门店');
    await page.waitForSelector('[data-testid=batch-count-done][data-value="3"]', { timeout: 180_000 });
    expect(await page.locator('[data-testid=batch-page-row][data-status="3"]').count()).toBe(3);

    const zip = await download(page, '[data-testid=batch-zip]', path.join(dir, 'batch.zip'));
    // Each row's video and its subtitles (its speech's timed text), named after the row.
    expect((await zipEntries(fs.readFileSync(zip))).sort()).toEqual(ROWS.flatMap(([name], i) => [`00${i + 1}-${name}.mp4`, `00${i + 1}-${name}.srt`]));
    await context.close();
  });

  it('looks right: the grid with an error and the batch page, dark on a desktop and light on a phone', { timeout: 180_000 }, async () => {
    const table = await filledTable();
    for (const { theme, phone } of LOOKS) {
      const look = `${theme}-${phone ? 'phone' : 'desktop'}`;
      const { page, context } = await openBatch('/batch', { theme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      await uploadWithError(page, table);
      if (phone) expect(await horizontalOverflow(page, '.bat-page', '.bat-page *:not(.bat-table-wrap *)')).toEqual([]);
      if (phone) await page.locator('[data-testid=batch-grid]').scrollIntoViewIfNeeded();
      await shoot(page, `grid-error-${look}`);
      await page.click('[data-testid=batch-list-item]');
      await page.waitForSelector('[data-testid=batch-count-done][data-value="3"]');
      if (phone) expect(await horizontalOverflow(page, '.bat-page', '.bat-page *')).toEqual([]);
      await shoot(page, `batch-page-${look}`);
      await context.close();
    }
  });
});
