import { describe, expect, it } from 'vitest';
import { ImagegenStatus, LIMITS, type ImageRecord } from '../../contract';
import { COUNTS, cost, formOf, imageFileName, pickPrompts, previewedRecord, ratioShape, recordState, shownSlide } from './imagegen-view';

const record = (over: Partial<ImageRecord> = {}): ImageRecord => ({ id: 1, status: ImagegenStatus.Success, url: [], text: '湖泊', ratio: '9:16', num: 2, image: '', ...over });

describe('text-to-image view rules', () => {
  it('offers counts 1–4 at 10 credits each', () => {
    expect(COUNTS).toEqual([1, 2, 3, 4]);
    expect(cost(3)).toBe(3 * LIMITS.imageCreditsEach);
  });

  it('picks three different suggestions at random, all when fewer', () => {
    const list = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, content: `p${i + 1}` }));
    const picked = pickPrompts(list, 3, () => 0.999);
    expect(picked).toHaveLength(3);
    expect(new Set(picked.map((p) => p.id)).size).toBe(3);
    expect(pickPrompts(list, 3, () => 0).map((p) => p.id)).not.toEqual(picked.map((p) => p.id));
    expect(pickPrompts(list.slice(0, 2))).toHaveLength(2);
  });

  it('refills the form from a record, keeping values in range', () => {
    expect(formOf(record({ image: '/storage/a.png' }))).toEqual({ text: '湖泊', ratio: '9:16', num: 2, image: '/storage/a.png' });
    expect(formOf(record({ ratio: '4:3', num: 9 }))).toMatchObject({ ratio: LIMITS.imageRatios[0], num: 4 });
  });

  it('tells done, failed and running records apart (3, 4, anything else)', () => {
    expect(recordState(record())).toBe('done');
    expect(recordState(record({ status: ImagegenStatus.Failed }))).toBe('failed');
    expect(recordState(record({ status: 1 }))).toBe('running');
    expect(recordState(record({ status: 0 }))).toBe('running');
  });

  it('draws ratio shapes and names downloads', () => {
    expect(ratioShape('16:9')).toEqual({ width: 18, height: 10 });
    expect(ratioShape('2:3')).toEqual({ width: 12, height: 18 });
    expect(imageFileName('雪山 下的/湖泊', 0, '/storage/7/abc.jpg?exp=1&sig=x')).toBe('雪山 下的 湖泊-1.jpg');
    expect(imageFileName('', 2, '/storage/7/abc')).toBe('图片-3.png');
  });

  it('previews the chosen record while it is done, else the newest finished one; keeps the slide within the pictures', () => {
    const list = [record({ id: 3, status: 1 }), record({ id: 2 }), record({ id: 1 })];
    expect(previewedRecord(list, 1)?.id).toBe(1);
    expect([previewedRecord(list, null)?.id, previewedRecord(list, 3)?.id]).toEqual([2, 2]);
    expect(previewedRecord([record({ status: ImagegenStatus.Failed })], null)).toBeUndefined();
    expect([shownSlide(2, 3), shownSlide(5, 2), shownSlide(1, 0)]).toEqual([2, 1, 0]);
  });
});
