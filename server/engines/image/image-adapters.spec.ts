/** The image adapters against a loopback peer speaking OpenAI's, SiliconFlow's and Kling's image APIs. */
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/contract';
import { startImagePeer } from '../../../tests/support/peers/image-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { ImageEngineError } from './image-engine';
import { KlingImages } from './kling-images';
import { imageSize, OpenAiCompatibleImages, type ImageDialect } from './openai-images';

const peer = usePeer(startImagePeer);

const engine = (dialect: ImageDialect, model = dialect === 'openai' ? 'gpt-image-1' : 'Kwai-Kolors/Kolors', apiKey = peer.apiKey) =>
  new OpenAiCompatibleImages({ dialect, baseUrl: `${peer.url}/`, apiKey, model, timeoutMs: 5000 });
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

describe('image adapter', () => {
  it('openai: one request per picture (n 1, the model size of the ratio), links or inline bytes', async () => {
    peer.behave('openai', { kind: 'images' });
    const made = await engine('openai').generate({ prompt: '一只猫', ratio: '16:9', count: 2 });
    expect(made.images).toHaveLength(2);
    expect(made.images.every((i) => 'url' in i && i.url.startsWith('http://127.0.0.1'))).toBe(true);
    expect(peer.requests.slice(-2).map((r) => r.body)).toEqual([
      { model: 'gpt-image-1', prompt: '一只猫', n: 1, size: '1536x1024' },
      { model: 'gpt-image-1', prompt: '一只猫', n: 1, size: '1536x1024' },
    ]);

    peer.behave('openai', { kind: 'images', as: 'b64' });
    const inline = await engine('openai', 'cogview-4').generate({ prompt: '山水', ratio: '2:3', count: 1 });
    expect('bytes' in inline.images[0]! && inline.images[0].bytes.subarray(0, 8)).toEqual(PNG);
    expect(peer.requests.at(-1)!.body.size).toBe('832x1248');
    expect(peer.shapeErrors).toEqual([]);
  });

  it('openai with a reference picture asks images/edits with the picture as a multipart file', async () => {
    peer.behave('openai', { kind: 'images' });
    const reference = Buffer.concat([PNG, Buffer.from('reference')]);
    await engine('openai').generate({ prompt: '换成水彩风格', ratio: '1:1', count: 1, reference: { bytes: reference, ext: 'png' } });
    const req = peer.requests.at(-1)!;
    expect(req.path).toBe('images/edits');
    expect(req.body).toMatchObject({ model: 'gpt-image-1', prompt: '换成水彩风格', n: '1', size: '1024x1024' });
    expect(req.reference).toEqual(reference);
  });

  it('siliconflow: all pictures in one request (image_size, batch_size), the reference as a data URI', async () => {
    peer.behave('siliconflow', { kind: 'images' });
    const reference = Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]);
    const made = await engine('siliconflow').generate({ prompt: '城市夜景', ratio: '9:16', count: 3, reference: { bytes: reference, ext: 'jpg' } });
    expect(made.images).toHaveLength(3);
    const req = peer.requests.at(-1)!;
    expect(req.body).toMatchObject({ model: 'Kwai-Kolors/Kolors', prompt: '城市夜景', image_size: '720x1280', batch_size: 3 });
    expect(req.reference).toEqual(reference);
    expect(peer.shapeErrors).toEqual([]);
  });

  it('failures carry the Chinese reason, never the key; a failure after some pictures keeps them', async () => {
    const refused = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err as ImageEngineError);
    const wrongKey = await refused(engine('openai', 'gpt-image-1', 'sk-wrong-key-abcdefgh').generate({ prompt: 'x', ratio: '1:1', count: 1 }));
    expect(wrongKey).toBeInstanceOf(ImageEngineError);
    expect(wrongKey).toMatchObject({ message: MSG.imageEngineAuthFailed, transient: false });
    expect(wrongKey!.detail).not.toContain('sk-wrong-key-abcdefgh');
    expect(wrongKey!.detail).not.toContain('efgh');

    peer.behave('siliconflow', { kind: 'status', status: 400, message: 'prompt blocked' });
    expect(await refused(engine('siliconflow').generate({ prompt: 'x', ratio: '1:1', count: 1 }))).toMatchObject({ message: MSG.imageEngineRejected, transient: false });
    peer.behave('openai', { kind: 'status', status: 503 });
    expect(await refused(engine('openai').generate({ prompt: 'x', ratio: '1:1', count: 1 }))).toMatchObject({ message: MSG.imageEngineDown, transient: true });
    peer.behave('openai', { kind: 'status', status: 429 });
    expect(await refused(engine('openai').generate({ prompt: 'x', ratio: '1:1', count: 1 }))).toMatchObject({ message: MSG.imageEngineBusy, transient: true });
    const gone = new OpenAiCompatibleImages({ dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', timeoutMs: 2000 });
    expect(await refused(gone.generate({ prompt: 'x', ratio: '1:1', count: 1 }))).toMatchObject({ message: MSG.imageEngineUnreachable, transient: true });

    peer.behave('openai', { kind: 'failAfter', made: 1, status: 500 });
    const partial = await engine('openai').generate({ prompt: '两张', ratio: '1:1', count: 3 });
    expect(partial.images).toHaveLength(1);
    expect(partial.shortfall).toMatchObject({ message: MSG.imageEngineDown });
  });

  it('sizes: OpenAI models get their three sizes, dall-e-3 its own, others the exact ratio', () => {
    expect(imageSize('openai', 'dall-e-3', '9:16')).toBe('1024x1792');
    expect(imageSize('siliconflow', 'Qwen/Qwen-Image', '16:9')).toBe('1280x720');
  });

  it('kling: submits a task with a signed token, polls it to the pictures; a failed task says so; a wrong secret is refused', async () => {
    const kling = (secretKey = peer.secretKey) => new KlingImages({ baseUrl: peer.origin, accessKey: peer.apiKey, secretKey, model: 'kling-v1', timeoutMs: 5000, pollMs: 20 });
    peer.behave('kling', { kind: 'images' });
    const reference = Buffer.concat([PNG, Buffer.from('kling')]);
    const made = await kling().generate({ prompt: '水墨山水', ratio: '2:3', count: 2, reference: { bytes: reference, ext: 'png' } });
    expect(made.images).toHaveLength(2);
    expect(made.images.every((i) => 'url' in i)).toBe(true);
    const req = peer.requests.at(-1)!;
    expect(req.body).toMatchObject({ model_name: 'kling-v1', prompt: '水墨山水', n: 2, aspect_ratio: '2:3' });
    expect(req.reference).toEqual(reference);
    expect(peer.shapeErrors).toEqual([]);

    peer.behave('kling', { kind: 'taskFails', message: 'Failure to pass the risk control system' });
    const failed = await kling().generate({ prompt: 'x', ratio: '1:1', count: 1 }).catch((err: unknown) => err as ImageEngineError);
    expect(failed).toMatchObject({ message: MSG.imageEngineRejected, transient: false });
    expect((failed as ImageEngineError).detail).toContain('risk control');

    const refused = await kling('wrong-secret-key-000').generate({ prompt: 'x', ratio: '1:1', count: 1 }).catch((err: unknown) => err as ImageEngineError);
    expect(refused).toMatchObject({ message: MSG.imageEngineAuthFailed });
    expect((refused as ImageEngineError).detail).not.toContain('wrong-secret');
  });
});
