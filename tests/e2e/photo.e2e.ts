/**
 * Pet and photo-speak (part 2 §2.1, §2.2, §2.4, §5) against the real server: the upload dialog's messages, a file
 * refused by its content, a pet picture uploaded and made into a video on /pet/establish that plays on /works under
 * 宠物视频; a person picture published with `npm run admin -- photo publish`, made into a lip-synced video on
 * /store/characters that plays under 照片说话; deleting an own picture (cancel, then confirm); a public picture
 * offers no delete and the server refuses it; ?type opens the upload dialog; screenshots of both libraries and both
 * creation screens in both themes, desktop and phone (into SHOTS_DIR when set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API, MSG, type Photo } from '../../src/contract';
import { probe } from '../../server/infra/media-probe';
import type { ApiTestClient } from '../support/app';
import { escapeDialog, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { openChannelDialog, downloadPlayable, hashPath, pickCreateVoice, toast, typeScript, useJourney, type PageOptions } from '../support/journey';
import { makeSpeech } from '../support/media';
import { makeFacePicture, makePetPicture } from '../support/picture-media';
import { until } from '../support/wait';

const USERNAME = '13800009301';
const shoot = screenshots('photo');
const VOICE_NAME = '公共·播音女声';
const PERSON_NAME = 'AI主播小美';
const PUBLIC_PET = 'AI橘猫';

const { server, apiClient, loggedInPage, mediaDir } = useJourney({ users: { [USERNAME]: 10_000 } });
let dir: string;
let client: ApiTestClient;
let pet: string;

beforeAll(async () => {
  dir = mediaDir();
  pet = makePetPicture(path.join(dir, 'cat.png'));
  const face = makeFacePicture(path.join(dir, 'face.jpg'));
  const speech = await makeSpeech(path.join(dir, 'speech.mp3'), '大家好，欢迎来到我的直播间，今天给大家介绍一款新品。');
  await server.admin('photo', 'publish', face, '--name', PERSON_NAME, '--type', 'person');
  await server.admin('photo', 'publish', pet, '--name', PUBLIC_PET, '--type', 'pet');
  await server.admin('voice', 'publish', speech, '--name', VOICE_NAME);
  client = await apiClient(USERNAME);
  await until(
    async () => (await client.call(API.voices.list, { source: 2, page: 1, limit: 100 })).data.list as { name: string; generate_status: number }[],
    (list) => list.some((v) => v.name === VOICE_NAME && v.generate_status === 2),
    120_000,
    500,
  );
}, 300_000);

// ---------------------------------------------------------------------------------------------------------------- helpers

async function openLibrary(route: string, options: PageOptions = {}) {
  const opened = await loggedInPage(USERNAME, route, options);
  await opened.page.waitForSelector('[data-testid=photo-library]');
  return opened;
}

async function openEstablish(page: Page) {
  await page.waitForSelector('[data-testid=create-panel]');
  await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
}

const showPane = (page: Page, id: string) => page.click(`[data-testid=create-tab-${id}]`);

async function pickPublicVoice(page: Page) {
  await showPane(page, 'voice');
  await pickCreateVoice(page, VOICE_NAME);
}

/** 合成视频 on the channel → 提交成功 → 去作品页 on the tab; answers the new work's card selector. */
async function submitTo(page: Page, channel: string, tab: 'pet' | 'photo', type2: number): Promise<string> {
  await openChannelDialog(page);
  await page.click(`[data-testid=create-channel-${channel}]`);
  await page.click('[data-testid=create-channel-confirm]');
  await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
  await page.click('.cr-alert >> text=去作品页');
  await page.waitForFunction((t) => location.hash === `#/works?type1=0&type2=${t}`, type2);
  await page.waitForSelector(`[data-testid=works-tab-${tab}][aria-selected=true]`);
  const works = (await client.call(API.works.list, { page: 1, limit: 20 })).data.list as { id: number }[];
  return `[data-testid=work-card][data-id="${works[0]!.id}"]`;
}

/** Waits until the card is playable, plays it, downloads its mp4; answers its probe. */
async function playAndDownload(page: Page, card: string, name: string) {
  const saved = path.join(dir, `${name}.mp4`);
  await downloadPlayable(page, card, saved, 240_000);
  return probe(saved, 'mp4');
}

const myPictures = async (type: number) => (await client.call(API.photo.list, { source: 1, type, page: 1, limit: 0 })).data.list as Photo[];

// ---------------------------------------------------------------------------------------------------------------- journeys

describe('pet and photo-speak', () => {
  it('uploads a pet picture (messages first), makes a pet video from it and plays it under 宠物视频', { timeout: 400_000 }, async () => {
    const { page, context } = await openLibrary('/pet');
    // The AI library first, with the published pet; no delete on it.
    await page.waitForSelector(`[data-testid=photo-card] >> text=${PUBLIC_PET}`);
    expect(await page.locator('[data-testid=photo-card] [data-testid=photo-delete]').count()).toBe(0);

    await page.click('[data-testid=photo-tab-mine]');
    await page.click('[data-testid=photo-add]');
    await page.waitForSelector('.ph-dialog');
    expect(await page.isChecked('[data-testid=photo-agree]')).toBe(true);
    await page.click('[data-testid=photo-submit]');
    await toast(page, MSG.petNameRequired);
    await page.fill('[data-testid=photo-name]', '我家旺财');
    await page.click('[data-testid=photo-submit]');
    await toast(page, MSG.petImageRequired);
    // A file named .png that is not an image: refused by its content (the first bytes), in its own words.
    const fake = path.join(dir, 'fake.png');
    fs.writeFileSync(fake, 'this is not a picture');
    await page.setInputFiles('[data-testid=photo-upload-box] input[type=file]', fake);
    await toast(page, MSG.fileUnrecognized('image'));
    await page.setInputFiles('[data-testid=photo-upload-box] input[type=file]', pet);
    await toast(page, MSG.uploadSucceeded);
    // A click on the picture marks the pet's mouth (below the middle of the drawn head); a second click moves it.
    expect(await page.textContent('[data-testid=photo-mouth]')).toContain(MSG.photoMouthHint);
    const picture = page.locator('[data-testid=photo-mouth-image]');
    await picture.waitFor();
    const box = (await picture.boundingBox())!;
    await picture.click({ position: { x: box.width * 0.3, y: box.height * 0.3 } });
    await picture.click({ position: { x: box.width * 0.5, y: box.height * 0.636 } });
    await page.waitForSelector('[data-testid=photo-mouth-dot]');
    expect(await page.textContent('[data-testid=photo-mouth]')).toContain(MSG.photoMouthMarked);
    // The agreement is not enforced.
    await page.click('.ph-agree');
    await page.click('[data-testid=photo-submit]');
    await page.waitForSelector('.ph-dialog', { state: 'detached' });
    const card = page.locator('[data-testid=photo-card]', { hasText: '我家旺财' });
    await card.waitFor();

    // Hover → 创建视频 → /pet/establish with the picture picked.
    await card.hover();
    await card.locator('[data-testid=photo-create]').click();
    const mine = (await myPictures(2)).find((p) => p.name === '我家旺财')!;
    await page.waitForFunction((id) => location.hash === `#/pet/establish?id=${id}&source=1`, mine.id);
    await openEstablish(page);
    await showPane(page, 'avatar');
    await page.waitForSelector('[data-testid=create-pictures] .cr-avatar.picked >> text=我家旺财');
    await showPane(page, 'script');
    await typeScript(page, '主人你好，我是旺财，', 0.5, '今天我们去公园散步吧。');
    await pickPublicVoice(page);
    const cardSelector = await submitTo(page, 'lip', 'pet', 2);
    // The tab's count arrives with the works list (– until then).
    await page.waitForSelector('[data-testid=works-count-pet] >> text=1');
    // Left 未命名, the work is named after the script's first words (and so is its download), not 未命名.
    const petName = '主人你好，我是旺财，今天';
    expect(((await client.call(API.works.list, { page: 1, limit: 1 })).data.list as { name: string }[])[0]!.name).toBe(petName);
    await page.waitForSelector(`${cardSelector} >> text=${petName}`);
    const probed = await playAndDownload(page, cardSelector, 'pet-work');
    // The 800×600 picture at its own size (above the test servers' composing size, 360 px).
    expect(probed.video).toMatchObject({ codec: 'h264', width: 800, height: 600 });
    expect(probed.audio?.codec).toBe('aac');
    // The marked mouth moves: the card carries no camera-motion note.
    expect(await page.locator(`${cardSelector} [data-testid=work-note]`).count()).toBe(0);
    const marked = (await myPictures(2)).find((p) => p.name === '我家旺财')!;
    expect(marked.mouth_x).toBeCloseTo(0.5, 1);
    expect(marked.mouth_y).toBeCloseTo(0.636, 1);
    await context.close();
  });

  it('makes a lip-synced photo-speak video from the AI library on /store/characters and plays it under 照片说话', { timeout: 400_000 }, async () => {
    const { page, context } = await openLibrary('/store/imageSpeak');
    const card = page.locator('[data-testid=photo-card]', { hasText: PERSON_NAME });
    await card.hover();
    await card.locator('[data-testid=photo-create]').click();
    await page.waitForFunction(() => location.hash.startsWith('#/store/characters?id=') && location.hash.endsWith('&source=2'));
    await openEstablish(page);
    expect(await page.textContent('.cr-title')).toBe('创建照片说话');
    await showPane(page, 'avatar');
    await page.waitForSelector(`[data-testid=create-pictures] .cr-avatar.picked >> text=${PERSON_NAME}`);
    await showPane(page, 'script');
    await typeScript(page, '大家好，欢迎来到我的直播间，', 0.3, '今天给大家介绍一款新品。');
    await pickPublicVoice(page);
    const cardSelector = await submitTo(page, 'lip', 'photo', 4);
    const probed = await playAndDownload(page, cardSelector, 'person-work');
    expect(probed.video).toMatchObject({ codec: 'h264', width: 600, height: 800 });
    // Lip-synced: the card carries no fallback note.
    expect(await page.locator(`${cardSelector} [data-testid=work-note]`).count()).toBe(0);
    await context.close();
  });

  it('deletes an own picture after confirming (cancel first); a public one cannot be deleted, by the server either', { timeout: 120_000 }, async () => {
    const { page, context } = await openLibrary('/pet?type=upload');
    // ?type opens the upload dialog on my uploads.
    await page.waitForSelector('.ph-dialog');
    await page.waitForSelector('[data-testid=photo-tab-mine][aria-selected=true]');
    await escapeDialog(page);
    await page.waitForSelector('.ph-dialog', { state: 'detached' });
    const card = page.locator('[data-testid=photo-card]', { hasText: '我家旺财' });
    await card.hover();
    await card.locator('[data-testid=photo-delete]').click();
    await page.click('.ph-alert button >> text=取消');
    await toast(page, MSG.deleteCancelled);
    await page.waitForSelector('.ph-alert', { state: 'detached' });
    await card.hover();
    await card.locator('[data-testid=photo-delete]').click();
    await page.click('.ph-alert button.bp6-intent-danger');
    await toast(page, MSG.deleteSucceeded);
    await card.waitFor({ state: 'detached' });
    expect(await myPictures(2)).toEqual([]);

    const publicPet = ((await client.call(API.photo.list, { source: 2, type: 2, page: 1, limit: 0 })).data.list as Photo[])[0]!;
    expect(await client.call(API.photo.remove, { id: publicPet.id })).toMatchObject({ code: 1, msg: MSG.photoPublicUndeletable });
    expect(hashPath(page)).toContain('/pet');
    await context.close();
  });

  it('looks right in both themes, on a desktop and a phone', { timeout: 180_000 }, async () => {
    const person = ((await client.call(API.photo.list, { source: 2, type: 1, page: 1, limit: 0 })).data.list as Photo[])[0]!;
    // Every screen once in the dark desktop; the light theme on a phone for one library and one creation screen.
    const looks = [
      { theme: 'dark', phone: false, libraries: ['/pet', '/store/imageSpeak'], screens: ['characters', 'establish'] },
      { theme: 'light', phone: true, libraries: ['/pet'], screens: ['establish'] },
    ] as const;
    const screenRoutes = { characters: `/store/characters?id=${person.id}&source=2`, establish: '/pet/establish' };
    for (const { theme, phone, libraries, screens } of looks) {
      const options = { theme, viewport: phone ? PHONE_VIEWPORT : undefined };
      const name = `${theme}-${phone ? 'phone' : 'desktop'}`;
      for (const route of libraries) {
        const shot = route.split('/').pop()!;
        const { page, context } = await openLibrary(route, options);
        await page.waitForSelector('[data-testid=photo-card] img');
        if (phone) expect(await horizontalOverflow(page, '.ph-page', '.ph-page *')).toEqual([]);
        await shoot(page, `${shot}-${name}`);
        await page.click('[data-testid=photo-tab-mine]');
        await page.click('[data-testid=photo-add]');
        await page.waitForSelector('.ph-dialog');
        await shoot(page, `${shot}-upload-${name}`);
        await context.close();
      }
      for (const shot of screens) {
        const { page, context } = await loggedInPage(USERNAME, screenRoutes[shot], options);
        await openEstablish(page);
        await showPane(page, 'script');
        await typeScript(page, '大家好，欢迎来到我的直播间。');
        await pickPublicVoice(page);
        await showPane(page, 'avatar');
        await page.waitForSelector('[data-testid=create-pictures] .cr-avatar');
        if (shot === 'establish') await page.click('[data-testid=create-pictures] .cr-avatar');
        await shoot(page, `${shot}-${name}`);
        if (phone) {
          await showPane(page, 'preview');
          await shoot(page, `${shot}-preview-${name}`);
        }
        await context.close();
      }
    }
  });
});
