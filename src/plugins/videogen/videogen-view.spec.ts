import { describe, expect, it } from 'vitest';
import { LIMITS, MSG, VideoTaskStatus, nearestVideoRatio, type VideoRecord } from '../../contract';
import { composePrompt, costOf, emptyForm, engineView, formFromRecord, formProblem, imaginationWarns, orgData, pickRandom, recommendCount, selectedRecord, submitParams, toggleWord } from './videogen-view';

const group = { name: '镜头', list: [{ name: '推镜头', demo_url: '', is_multi: 0 as const }, { name: '环绕', demo_url: '', is_multi: 0 as const }] };
const styles = { name: '风格', list: [{ name: '电影感', demo_url: '', is_multi: 1 as const }, { name: '写实', demo_url: '', is_multi: 1 as const }] };

describe('video generation form', () => {
  it('composes the prompt from the typed text and chosen words, and keeps both in org_data for the refill', () => {
    const form = { ...emptyForm(), content: ' 海边日落 ', chosen: ['推镜头', '电影感'] };
    expect(composePrompt(form)).toBe('海边日落，推镜头，电影感');
    const record = { id: 1, status: VideoTaskStatus.Success, url: '', cover: '', duration: 10, aspect_ratio: '9:16', mode: 'pro', negative_prompt: '模糊', cfg_scale: 0.8, image: '', image_tail: '', org_data: orgData(form), prompt: 'x' } satisfies VideoRecord;
    expect(formFromRecord(record)).toMatchObject({ content: ' 海边日落 ', chosen: ['推镜头', '电影感'], mode: 'pro', duration: 10, ratio: '9:16', negative: '模糊', cfgScale: 0.8 });
    expect(formFromRecord({ ...record, org_data: '' })).toMatchObject({ content: 'x', chosen: [] });
  });

  it('single-choice groups keep one word, multi-choice groups toggle', () => {
    expect(toggleWord(['推镜头'], group, '环绕')).toEqual(['环绕']);
    expect(toggleWord(['环绕'], group, '环绕')).toEqual([]);
    expect(toggleWord(['电影感', '环绕'], styles, '写实')).toEqual(['电影感', '环绕', '写实']);
  });

  it('prices, checks and the imagination warning follow the contract', () => {
    expect(costOf({ mode: 'std', duration: 5 })).toBe(360);
    expect(costOf({ mode: 'pro', duration: 10 })).toBe(1200);
    // A camera move made here: the engine's percent of the price list.
    expect(costOf({ mode: 'std', duration: 5 }, 10)).toBe(36);
    expect(costOf({ mode: 'std', duration: 10 }, 1)).toBe(7);
    expect(formProblem('text', emptyForm())).toBe(MSG.promptRequired);
    expect(formProblem('image', { ...emptyForm(), content: 'a' })).toBe(MSG.firstFrameRequired);
    expect(formProblem('image', { ...emptyForm(), content: 'a', imageMode: 2 })).toBe(MSG.referenceImageRequired);
    expect(formProblem('text', { ...emptyForm(), chosen: ['环绕'] })).toBeNull();
    // The prompt is Kling's: a camera move made here goes without one.
    expect(formProblem('image', { ...emptyForm(), image: 'i' }, 'kling')).toBe(MSG.promptRequired);
    expect(formProblem('image', { ...emptyForm(), image: 'i' }, 'local')).toBeNull();
    // A picture's own ratio: the nearest offered.
    expect([nearestVideoRatio(600, 1300), nearestVideoRatio(1920, 1080), nearestVideoRatio(900, 600), nearestVideoRatio(640, 700)]).toEqual(['9:16', '16:9', '16:9', '1:1']);
    expect([imaginationWarns(0.7), imaginationWarns(0.75)]).toEqual([false, true]);
    expect(submitParams('image', { ...emptyForm(), content: 'a', image: 'i', imageTail: 't', imageMode: 2 })).not.toHaveProperty('image_tail');
    expect(submitParams('text', { ...emptyForm(), content: 'a', image: 'i' })).not.toHaveProperty('image');
  });

  it('picks distinct items at random', () => {
    const picked = pickRandom([1, 2, 3, 4, 5, 6], 3);
    expect(new Set(picked).size).toBe(3);
    expect(pickRandom([1, 2], 5)).toHaveLength(2);
  });

  it('shows the chosen record, else the newest finished one', () => {
    const r = (id: number, status: number) => ({ id, status }) as VideoRecord;
    const list = [r(3, VideoTaskStatus.Processing), r(2, VideoTaskStatus.Success), r(1, VideoTaskStatus.Success)];
    expect(selectedRecord(list, 1)?.id).toBe(1);
    expect(selectedRecord(list, null)?.id).toBe(2);
    expect(selectedRecord(list, 9)?.id).toBe(2);
    expect(selectedRecord([r(3, VideoTaskStatus.Failed)], null)).toBeUndefined();
  });

  it('reads what the screen may do from the engines', () => {
    const engines = { text: { engine: null, pro: 0 as const, percent: 100 }, image: { engine: 'local' as const, pro: 1 as const, percent: 10 } };
    expect(engineView(undefined, 'text')).toEqual({ loaded: false, engine: null, unavailable: false, proOpen: false, percent: 100 });
    expect(engineView(engines, 'text')).toEqual({ loaded: true, engine: null, unavailable: true, proOpen: false, percent: 100 });
    expect(engineView(engines, 'image')).toEqual({ loaded: true, engine: 'local', unavailable: false, proOpen: true, percent: 10 });
    expect([recommendCount('text'), recommendCount('image')]).toEqual([LIMITS.recommendCount, LIMITS.recommendCountImageToVideo]);
  });
});
