/**
 * Pet and person pictures through real HTTP on both databases: uploads checked by content, the calls' messages, the
 * operator's publish, two users who cannot see, use or delete each other's pictures, public pictures nobody can
 * delete, and works made from a picture — a pet under a gentle camera motion (said on its card), a person's face
 * lip-synced — that play as H.264/AAC mp4, counted under their works tabs and charged like other works.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, MSG, PhotoType } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeImage, makeSpeech, mediaDir } from '../../../tests/support/media';
import { makeFacePicture, makePetPicture } from '../../../tests/support/picture-media';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { fetchHead } from '../../../tests/support/fetch';
import { FFMPEG, probe } from '../../infra/media-probe';

const dir = mediaDir();
const PET = makePetPicture(path.join(dir, 'pet.png'));
/** Where the drawn pet's mouth would be: below the middle of its head (makePetPicture's 800×600 layout). */
const PET_MOUTH = { mouth_x: 0.5, mouth_y: 0.636 };

/** Per frame, the mean absolute luma change of a region from the first frame (0–255). */
function regionChange(video: string, r: { x: number; y: number; w: number; h: number }): number[] {
  const raw = execFileSync(FFMPEG, ['-v', 'error', '-i', video, '-vf', `crop=${r.w}:${r.h}:${r.x}:${r.y},format=gray`, '-f', 'rawvideo', 'pipe:1'], { maxBuffer: 1 << 28 });
  const size = r.w * r.h;
  const out: number[] = [];
  for (let at = 0; at + size <= raw.length; at += size) {
    let sum = 0;
    for (let i = 0; i < size; i++) sum += Math.abs(raw[at + i]! - raw[i]!);
    out.push(sum / size);
  }
  return out;
}
const FACE = makeFacePicture(path.join(dir, 'face.jpg'));
/** What the pictures say: about 6.5 s (an upload needs 5), a mouth opens and shuts many times; every render's length follows it. */
const SPEECH = '大家好，我是旺财，今天天气真好，我们一起出去散步吧。';

describe.each(DB_KINDS)('pet and person pictures (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15800000001', '15800000002'], 1000);
  let speechFileId = 0;

  const list = (c: ApiTestClient, type: number, source: number) => c.call(API.photo.list, { type, source, page: 1, limit: 0 });
  async function addOwn(c: ApiTestClient, type: number, name: string, file: string) {
    const upload = await uploadFile(c, 'image', file);
    expect(upload.code, upload.msg).toBe(0);
    const made = await c.call(API.photo.create, { type, name, file_id: upload.data.file_id });
    expect(made.code, made.msg).toBe(0);
    return made.data.id as number;
  }
  async function finished(c: ApiTestClient, workId: number) {
    const done = await until(() => c.call(API.works.list, { page: 1, limit: 50 }), (r) => [3, 4].includes(r.data.list.find((w: any) => w.id === workId)?.status), 240_000);
    return done.data.list.find((w: any) => w.id === workId);
  }
  async function playable(work: any, name: string) {
    const file = path.join(dir, `${name}-${kind}.mp4`);
    await writeFile(file, Buffer.from(await (await fetch(`${t.url}${work.url}`)).arrayBuffer()));
    return probe(file, 'mp4');
  }

  it('refuses uploads that are not png/jpg by their content, and pictures without a name or an image', async () => {
    expect((await uploadFile(a, 'image', Buffer.from('not an image at all'), 'cat.png')).msg).toBe(MSG.fileUnrecognized('image'));
    expect((await uploadFile(a, 'image', makeAudio(path.join(dir, 'fake.mp3')), 'cat.jpg')).msg).toBe(MSG.imageInvalid);
    expect((await uploadFile(a, 'image', makeImage(path.join(dir, 'tiny.png'), { width: 200, height: 200 }))).msg).toBe(MSG.imageTooSmall);

    expect(await a.call(API.photo.create, { type: 2 })).toMatchObject({ code: 1, msg: MSG.petNameRequired });
    expect(await a.call(API.photo.create, { type: 2, name: '旺财' })).toMatchObject({ code: 1, msg: MSG.petImageRequired });
    expect(await a.call(API.photo.create, { type: 1, name: '' })).toMatchObject({ code: 1, msg: MSG.personNameRequired });
    expect(await a.call(API.photo.create, { type: 1, name: '小美' })).toMatchObject({ code: 1, msg: MSG.personImageRequired });
    expect((await a.call(API.photo.create, { type: 3, name: 'x', file_id: 1 })).code).toBe(1);
    expect((await a.call(API.photo.list, { type: 9, source: 1, page: 1, limit: 0 })).code).toBe(1);
    // An uploaded audio is no picture.
    const speech = await uploadFile(a, 'voice', await makeSpeech(path.join(dir, `speech-${kind}.mp3`), SPEECH));
    expect(speech.code, speech.msg).toBe(0);
    speechFileId = speech.data.file_id;
    expect(await a.call(API.photo.create, { type: 2, name: '旺财', file_id: speechFileId })).toMatchObject({ code: 1, msg: MSG.petImageRequired });
  });

  it('publishes AI-library pictures for everyone, refusing files that are not pictures', async () => {
    expect((await t.operator(API.photo.publish, { name: '假图', image: path.join(dir, 'fake.mp3'), type: 2 })).msg).toContain(MSG.imageInvalid);
    expect((await t.operator(API.photo.publish, { name: '无', image: path.join(dir, 'missing.png'), type: 2 })).msg).toContain('文件不存在');
    const pet = await t.operator(API.photo.publish, { name: 'AI橘猫', image: PET, type: PhotoType.Pet });
    const person = await t.operator(API.photo.publish, { name: 'AI主播', image: FACE, type: PhotoType.Person });
    expect(pet.code, pet.msg).toBe(0);
    expect(person.code, person.msg).toBe(0);
    for (const c of [a, b]) {
      expect((await list(c, 2, 2)).data.list).toEqual([expect.objectContaining({ id: pet.data.id, name: 'AI橘猫', source: 2, type: 2 })]);
      expect((await list(c, 1, 2)).data.list).toEqual([expect.objectContaining({ id: person.data.id, name: 'AI主播', source: 2, type: 1 })]);
      expect((await list(c, 2, 1)).data).toMatchObject({ list: [], total: 0 });
    }
    const cover = await fetchHead(`${t.url}${(await list(a, 2, 2)).data.list[0].cover}`);
    expect(cover.status).toBe(200);
  });

  it('keeps each user\'s pictures to themselves, and nobody deletes a public one', async () => {
    const mine = await addOwn(a, PhotoType.Pet, '旺财', PET);
    const listed = (await list(a, 2, 1)).data;
    expect(listed).toMatchObject({ total: 1, list: [{ id: mine, name: '旺财', source: 1, type: 2 }] });
    expect((await list(a, 1, 1)).data.total).toBe(0);
    const image = await fetchHead(`${t.url}${listed.list[0].url}`);
    expect(image.status).toBe(200);

    // Another user: not listed, not usable in a work, not deletable.
    expect((await list(b, 2, 1)).data.total).toBe(0);
    // An image of the material library (every upload is one) becomes a picture for its owner only.
    const aMaterial = (await a.call(API.material.list, { type: 'image', page: 1, limit: 9 })).data.list[0].id;
    expect(await b.call(API.photo.create, { type: 1, name: '偷图', material_id: aMaterial })).toMatchObject({ code: 1, msg: MSG.personImageRequired });
    const fromMaterial = await a.call(API.photo.create, { type: 1, name: '素材人物', material_id: aMaterial });
    expect(fromMaterial.code, fromMaterial.msg).toBe(0);
    expect((await list(a, 1, 1)).data.list).toEqual([expect.objectContaining({ id: fromMaterial.data.id, name: '素材人物', source: 1 })]);
    expect(await b.call(API.works.create, { api: 'local', photo_id: mine, voice_id: speechFileId })).toMatchObject({ code: 1, msg: MSG.photoMissing });
    expect(await b.call(API.photo.remove, { id: mine })).toMatchObject({ code: 1, msg: MSG.photoMissing });
    expect((await list(a, 2, 1)).data.total).toBe(1);
    // Nor can B make a picture of A's uploaded image.
    const aImage = await uploadFile(a, 'image', PET);
    expect(await b.call(API.photo.create, { type: 2, name: '偷图', file_id: aImage.data.file_id })).toMatchObject({ code: 1, msg: MSG.petImageRequired });
    expect((await list(b, 2, 1)).data.total).toBe(0);

    const publicPet = (await list(a, 2, 2)).data.list[0].id;
    for (const c of [a, b]) expect(await c.call(API.photo.remove, { id: publicPet })).toMatchObject({ code: 1, msg: MSG.photoPublicUndeletable });
    expect((await list(b, 2, 2)).data.total).toBe(1);
    expect(await a.call(API.photo.remove, { id: 999999 })).toMatchObject({ code: 1, msg: MSG.photoMissing });

    // The owner deletes it, and its objects go with it.
    const second = await addOwn(a, PhotoType.Pet, '小白', PET);
    const url = (await list(a, 2, 1)).data.list.find((p: any) => p.id === second).url;
    expect(await a.call(API.photo.remove, { id: second })).toMatchObject({ code: 0 });
    expect((await list(a, 2, 1)).data.list.map((p: any) => p.id)).toEqual([mine]);
    expect((await fetchHead(`${t.url}${url}`)).status).toBe(404);
  });

  it('makes a pet video under a gentle camera motion, says so, and charges it per second like other works', { timeout: 300_000 }, async () => {
    const pet = (await list(a, 2, 1)).data.list[0].id;
    const poor = await t.user('15800000003', 0);
    const ownPet = await addOwn(poor, PhotoType.Pet, '穷猫', PET);
    const speech = await uploadFile(poor, 'voice', path.join(dir, `speech-${kind}.mp3`));
    expect(await poor.call(API.works.create, { api: 'lip', photo_id: ownPet, voice_id: speech.data.file_id })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });

    const before = (await a.call(API.account.credits, {})).data.credits;
    const made = await a.call(API.works.create, { name: '旺财说话', api: 'lip', photo_id: pet, voice_id: speechFileId });
    expect(made.code, made.msg).toBe(0);
    const work = await finished(a, made.data.id);
    expect(work).toMatchObject({ status: 3, name: '旺财说话', reason: MSG.photoMotionNoMouth });
    const info = await playable(work, 'pet');
    // The 800×600 picture keeps its own size: its short side is above the test servers' composing size (360 px).
    expect(info.video).toMatchObject({ codec: 'h264', width: 800, height: 600 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.1);
    expect((await fetchHead(`${t.url}${work.cover}`)).status).toBe(200);
    expect(before - (await a.call(API.account.credits, {})).data.credits).toBe(Math.ceil(work.duration * 2));
    // Under the pet-video tab (type2 2), not the digital-human one.
    expect((await a.call(API.works.list, { page: 0, limit: 0, is_multi: 0, type: 2 })).data.total).toBe(1);
    expect((await a.call(API.works.list, { page: 0, limit: 0, photo_type: 2 })).data.total).toBe(1);
    expect((await a.call(API.works.list, { page: 0, limit: 0, is_multi: 0, type: 1 })).data.total).toBe(0);
    // The work keeps playing after its picture is deleted; deleting the work takes its own cover.
    expect(await a.call(API.photo.remove, { id: pet })).toMatchObject({ code: 0 });
    expect((await fetchHead(`${t.url}${work.url}`)).status).toBe(200);
    expect(await a.call(API.works.remove, { id: work.id })).toMatchObject({ code: 0 });
    expect((await fetchHead(`${t.url}${work.cover}`)).status).toBe(404);
  });

  it("moves a pet's mouth where the user marked it, and nothing far from it; a bad mark is refused", { timeout: 300_000 }, async () => {
    const upload = await uploadFile(a, 'image', PET);
    for (const bad of [{ mouth_x: 0.5 }, { mouth_x: 1.5, mouth_y: 0.5 }, { mouth_x: -0.1, mouth_y: 0.5 }, { mouth_x: 'x', mouth_y: 0.5 }]) {
      expect(await a.call(API.photo.create, { type: PhotoType.Pet, name: '标错了', file_id: upload.data.file_id, ...bad })).toMatchObject({ code: 1, msg: MSG.photoMouthInvalid });
    }
    const made = await a.call(API.photo.create, { type: PhotoType.Pet, name: '会说话的熊', file_id: upload.data.file_id, ...PET_MOUTH });
    expect(made.code, made.msg).toBe(0);
    expect((await list(a, PhotoType.Pet, 1)).data.list.find((p: any) => p.id === made.data.id)).toMatchObject({ mouth_x: PET_MOUTH.mouth_x, mouth_y: expect.closeTo(PET_MOUTH.mouth_y, 5) });
    // Runs once, on PGlite (CI time: this render is the file's heaviest part): what follows is media, not database
    // flavour — the mark it uses was just read back on both databases, and a pet work's SQL (reserve, settle, list)
    // is the pet video test's, which runs on both.
    if (kind !== 'pglite') return;

    const work = await a.call(API.works.create, { name: '熊说话', api: 'lip', photo_id: made.data.id, voice_id: speechFileId });
    expect(work.code, work.msg).toBe(0);
    const done = await finished(a, work.data.id);
    expect(done).toMatchObject({ status: 3 });
    expect(done.reason ?? '').toBe('');
    const video = path.join(dir, `bear-${kind}.mp4`);
    await writeFile(video, Buffer.from(await (await fetch(`${t.url}${done.url}`)).arrayBuffer()));
    // 800×600 output: the mark at (400, 382); the left eye at about (330, 300).
    const mouth = regionChange(video, { x: 366, y: 358, w: 68, h: 50 });
    const eye = regionChange(video, { x: 314, y: 284, w: 32, h: 32 });
    expect(Math.max(...mouth)).toBeGreaterThan(8);
    expect(Math.max(...eye)).toBeLessThan(1);
  });

  it('lip-syncs a public person picture on the lip channel, and moves only the camera on the local channel', { timeout: 400_000 }, async () => {
    const person = (await list(b, 1, 2)).data.list[0];
    const speech = await uploadFile(b, 'voice', path.join(dir, `speech-${kind}.mp3`));
    const lip = await b.call(API.works.create, { name: '主播说话', api: 'lip', photo_id: person.id, voice_id: speech.data.file_id });
    expect(lip.code, lip.msg).toBe(0);
    const synced = await finished(b, lip.data.id);
    expect(synced).toMatchObject({ status: 3 });
    expect(synced.reason ?? '').toBe('');
    // The 600×800 portrait keeps its shape and its size (at least the composing size on its short side, 360 px here).
    expect((await playable(synced, 'person')).video).toMatchObject({ codec: 'h264', width: 600, height: 800 });

    const still = await b.call(API.works.create, { name: '主播本地', api: 'local', photo_id: person.id, voice_id: speech.data.file_id });
    expect((await finished(b, still.data.id))).toMatchObject({ status: 3, reason: MSG.photoMotionChannel });
    expect((await b.call(API.works.list, { page: 0, limit: 0, is_multi: 0, type: 4 })).data.total).toBe(2);
    expect(fs.existsSync(FACE)).toBe(true);
  });
});
