/**
 * Text to image through real HTTP on both databases, against a loopback peer speaking the providers' image APIs:
 * not configured until the operator sets an engine; 10 credits a picture reserved at submit, the pictures not made
 * refunded (all on a failure, the rest on a partial result); results copied into our storage at once; a reference
 * picture that must be the user's own; save to material as its own copy; two users isolated for every record; bad input.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, ImagegenStatus, LIMITS, MSG } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf, latestCredits } from '../../../tests/support/voices';
import { makeImage, mediaDir } from '../../../tests/support/media';
import { startImagePeer } from '../../../tests/support/peers/image-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';

const dir = mediaDir();
const REFERENCE = makeImage(path.join(dir, 'reference.png'), { width: 400, height: 400 });
const EACH = LIMITS.imageCreditsEach;

const peer = usePeer(startImagePeer);

describe.each(DB_KINDS)('text to image (%s)', (kind) => {
  const t = useApp(kind);
  const phone = (n: number) => `1590000${kind === 'pglite' ? 1 : 2}${String(n).padStart(3, '0')}`;
  const [a, b] = useUsers(t, [phone(1), phone(2)], 1000);
  const credits = creditsOf;
  const generate = (c: ApiTestClient, params: Record<string, unknown>) => c.call(API.imagegen.create, { type: 'text', ratio: '1:1', num: 1, ...params });
  const records = (c: ApiTestClient) => c.call(API.imagegen.list, { type: 'text' }).then((r) => r.data.list as any[]);
  const finished = async (c: ApiTestClient, id: number) => {
    const list = await until(() => records(c), (l) => [ImagegenStatus.Success, ImagegenStatus.Failed].includes(l.find((r) => r.id === id)?.status), 20_000, 100);
    return list.find((r) => r.id === id);
  };
  const fetchBytes = async (url: string) => {
    const res = await fetch(`${t.url}${url}`);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('is not configured until the operator sets an engine: the screen learns so and a submit costs nothing', async () => {
    expect(await a.call(API.imagegen.engine, {})).toMatchObject({ code: 0, data: { configured: 0 } });
    expect(await generate(a, { text: '一只猫' })).toMatchObject({ code: 1, msg: MSG.imageEngineMissing });
    expect(await credits(a)).toBe(1000);
    expect(await t.operator(API.imagegen.engineSet, { engine: 'openai' })).toMatchObject({ code: 1, msg: '启用图片生成引擎需要 --api-key' });
    expect(await t.operator(API.imagegen.engineSet, { engine: 'cloud' })).toMatchObject({ code: 1 });
    expect(await t.operator(API.imagegen.engineSet, { engine: 'kling', api_key: 'ak' })).toMatchObject({ code: 1, msg: '可灵引擎需要 --api-key <AccessKey> 和 --secret-key <SecretKey>' });
    const set = await t.operator(API.imagegen.engineSet, { engine: 'openai', base_url: peer.url, api_key: peer.apiKey, model: 'gpt-image-1' });
    expect(set).toMatchObject({ code: 0, data: { engine: 'openai', base_url: peer.url, model: 'gpt-image-1', configured: true } });
    expect(JSON.stringify(set)).not.toContain(peer.apiKey);
    expect(await a.call(API.imagegen.engine, {})).toMatchObject({ code: 0, data: { configured: 1 } });
  });

  it('charges 10 a picture at submit and copies the pictures into our storage; save to material keeps its own copy', async () => {
    peer.behave('openai', { kind: 'images' });
    const sent = await generate(a, { text: '雪山下的湖泊', ratio: '16:9', num: 2 });
    expect(sent).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(await credits(a)).toBe(1000 - 2 * EACH);
    const record = await finished(a, sent.data.id);
    expect(record).toMatchObject({ status: ImagegenStatus.Success, text: '雪山下的湖泊', ratio: '16:9', num: 2, image: '' });
    expect(record.reason).toBeUndefined();
    expect(record.url).toHaveLength(2);
    const first = await fetchBytes(record.url[0]);
    expect(record.url[0]).toMatch(/^\/storage\//);
    expect(first.status).toBe(200);
    expect([...peer.served.values()].some((served) => served.equals(first.bytes))).toBe(true);
    expect(await credits(a)).toBe(1000 - 2 * EACH);

    const saved = await a.call(API.imagegen.save, { id: record.id, index: 1 });
    expect(saved).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(await a.call(API.imagegen.save, { id: record.id, index: 3 })).toMatchObject({ code: 1, msg: MSG.imageNotReady });
    const materials = (await a.call(API.material.list, { type: 'image', source: 2, page: 1, limit: 20 })).data.list;
    expect(materials[0]).toMatchObject({ id: saved.data.id, name: '雪山下的湖泊', type: 'image', origin: 'text_to_image', source: 2 });

    // Deleting the record deletes its pictures; the material's copy stays.
    const second = await fetchBytes(record.url[1]);
    expect(await a.call(API.imagegen.remove, { id: record.id })).toMatchObject({ code: 0 });
    expect((await fetchBytes(record.url[1])).status).toBe(404);
    const kept = await fetchBytes(materials[0].url);
    expect(kept.status).toBe(200);
    expect(kept.bytes.equals(second.bytes)).toBe(true);
    expect((await records(a)).map((r) => r.id)).not.toContain(record.id);
  });

  it('a provider failure fails the record with its reason and refunds it; a partial result refunds the pictures not made', async () => {
    const before = await credits(a);
    peer.behave('openai', { kind: 'status', status: 400, message: 'Your request was rejected by the safety system' });
    const refused = await generate(a, { text: '会被拒绝', num: 3 });
    expect(await finished(a, refused.data.id)).toMatchObject({ status: ImagegenStatus.Failed, url: [], reason: MSG.imageEngineRejected });
    // The charge at submit and its return, read from the credit log: the job may fail and refund before a balance read.
    expect(await latestCredits(a, 2)).toEqual([['文生图失败退回', 3 * EACH], ['文生图', -3 * EACH]]);
    expect(await credits(a)).toBe(before);

    peer.behave('openai', { kind: 'failAfter', made: 1, status: 400 });
    const partial = await generate(a, { text: '只成一张', num: 3 });
    const record = await finished(a, partial.data.id);
    expect(record).toMatchObject({ status: ImagegenStatus.Success, reason: MSG.imagePartlyMade(1, 3) });
    expect(record.url).toHaveLength(1);
    expect(await credits(a)).toBe(before - EACH);

    // SiliconFlow's links that no longer give a picture: nothing kept, all refunded.
    await t.operator(API.imagegen.engineSet, { engine: 'siliconflow', base_url: peer.url, api_key: peer.apiKey });
    peer.behave('siliconflow', { kind: 'deadLinks' });
    const dead = await generate(a, { text: '链接失效', num: 2 });
    expect(await finished(a, dead.data.id)).toMatchObject({ status: ImagegenStatus.Failed, reason: MSG.imageEngineBadReply });
    expect(await credits(a)).toBe(before - EACH);

    // Kling's asynchronous task (signed token, polled) through the job: the pictures arrive and are charged.
    await t.operator(API.imagegen.engineSet, { engine: 'kling', base_url: peer.origin, api_key: peer.apiKey, secret_key: peer.secretKey });
    peer.behave('kling', { kind: 'images' });
    const task = await generate(a, { text: '可灵任务', num: 2 });
    expect((await finished(a, task.data.id)).url).toHaveLength(2);
    expect(await credits(a)).toBe(before - 3 * EACH);
    await t.operator(API.imagegen.engineSet, { engine: 'siliconflow', base_url: peer.url, api_key: peer.apiKey });
  });

  it('a reference picture must be one of the user’s own images; the provider gets its bytes', async () => {
    peer.behave('siliconflow', { kind: 'images' });
    const upload = await uploadFile(a, 'image', REFERENCE);
    expect(upload.code, upload.msg).toBe(0);
    const sent = await generate(a, { text: '参考这张图', image: upload.data.url, ratio: '9:16', num: 2 });
    expect(sent.code, sent.msg).toBe(0);
    const record = await finished(a, sent.data.id);
    expect(record).toMatchObject({ status: ImagegenStatus.Success, ratio: '9:16' });
    expect(record.url).toHaveLength(2);
    expect(record.image).toMatch(/^\/storage\//);
    const req = peer.requests.at(-1)!;
    expect(req.body).toMatchObject({ image_size: '720x1280', batch_size: 2 });
    expect(req.reference!.equals((await fetchBytes(upload.data.url)).bytes)).toBe(true);

    const before = await credits(b);
    expect(await generate(b, { text: '借用别人的图', image: upload.data.url })).toMatchObject({ code: 1, msg: MSG.imageReferenceMissing });
    expect(await generate(b, { text: '外部图片', image: 'https://example.com/a.png' })).toMatchObject({ code: 1, msg: MSG.imageReferenceMissing });
    expect(await credits(b)).toBe(before);
  });

  it("another user's records are unlisted, undeletable and cannot be saved; a record in progress cannot be deleted", async () => {
    peer.behave('siliconflow', { kind: 'images', delayMs: 600 });
    const mine = await generate(a, { text: '私有的图' });
    expect(await a.call(API.imagegen.remove, { id: mine.data.id })).toMatchObject({ code: 1, msg: MSG.imageRecordBusy });
    expect(await b.call(API.imagegen.remove, { id: mine.data.id })).toMatchObject({ code: 1, msg: MSG.imageRecordMissing });
    await finished(a, mine.data.id);
    expect((await records(b)).map((r) => r.id)).not.toContain(mine.data.id);
    expect(await b.call(API.imagegen.remove, { id: mine.data.id })).toMatchObject({ code: 1, msg: MSG.imageRecordMissing });
    expect(await b.call(API.imagegen.save, { id: mine.data.id, index: 0 })).toMatchObject({ code: 1, msg: MSG.imageRecordMissing });
    expect((await records(a)).find((r) => r.id === mine.data.id)).toMatchObject({ status: ImagegenStatus.Success });
  });

  it('bad input gets code 1 with a Chinese message and costs nothing; too few credits are refused before any record', async () => {
    const before = await credits(a);
    const count = (await records(a)).length;
    expect(await generate(a, { text: '' })).toMatchObject({ status: 200, code: 1, msg: MSG.promptRequired });
    expect(await generate(a, { text: '   ' })).toMatchObject({ code: 1, msg: MSG.promptRequired });
    expect(await generate(a, { text: '猫', num: 5 })).toMatchObject({ code: 1 });
    expect(await generate(a, { text: '猫', num: 0 })).toMatchObject({ code: 1 });
    expect(await generate(a, { text: '猫', ratio: '4:3' })).toMatchObject({ code: 1, msg: '比例取值有误' });
    expect(await generate(a, { text: 'x'.repeat(LIMITS.promptMaxChars + 1) })).toMatchObject({ code: 1 });
    expect(await a.call(API.imagegen.remove, { id: 'abc' })).toMatchObject({ code: 1 });
    expect(await credits(a)).toBe(before);

    const poor = await t.user(phone(3), 15);
    expect(await generate(poor, { text: '两张图', num: 2 })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await records(poor)).toEqual([]);
    expect(await credits(poor)).toBe(15);
    expect((await records(a)).length).toBe(count);
  });

  it('suggests the seeded prompts and the ones the operator adds', async () => {
    const seeded = (await a.call(API.imagegen.prompts, { type: 'text' })).data.list as { id: number; content: string }[];
    expect(seeded.length).toBeGreaterThanOrEqual(LIMITS.recommendCount);
    expect(await t.operator(API.imagegen.promptAdd, { content: '月光下的竹林，水墨画' })).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(await t.operator(API.imagegen.promptAdd, { content: ' ' })).toMatchObject({ code: 1, msg: MSG.promptRequired });
    const after = (await a.call(API.imagegen.prompts, {})).data.list as { content: string }[];
    expect(after.map((p) => p.content)).toContain('月光下的竹林，水墨画');
    expect(after).toHaveLength(seeded.length + 1);
  });
});
