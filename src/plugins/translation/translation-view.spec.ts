import { describe, expect, it } from 'vitest';
import { MSG, TRANSLATE_CREDITS_PER_SECOND } from '../../contract';
import { languagesView, priceText, submitProblem, uploadProblem } from './translation-view';

describe('the translation screen', () => {
  it('takes MP4/MOV up to 500 MB', () => {
    expect(uploadProblem({ name: 'a.MP4', size: 1 })).toBeNull();
    expect(uploadProblem({ name: 'a.mov', size: 500 * 1024 * 1024 })).toBeNull();
    expect(uploadProblem({ name: 'a.avi', size: 1 })).toBe('请上传500MB以内的MP4/MOV格式的视频');
    expect(uploadProblem({ name: 'a.mp4', size: 500 * 1024 * 1024 + 1 })).toBe(MSG.translationVideoInvalid);
  });

  it('asks for the video, then each language, in order', () => {
    expect(submitProblem({ source: '', target: '' })).toBe('请上传视频！');
    expect(submitProblem({ fileId: 1, source: '', target: 'en' })).toBe('请选择初始化语言！');
    expect(submitProblem({ fileId: 1, source: 'zh', target: '' })).toBe('请选择翻译后的语言！');
    expect(submitProblem({ fileId: 1, source: 'zh', target: 'zh' })).toBe(MSG.translationSameLanguage);
    expect(submitProblem({ fileId: 1, source: 'zh', target: 'en' })).toBeNull();
  });

  it('shows the price of the chosen video', () => {
    expect(priceText(2, TRANSLATE_CREDITS_PER_SECOND[2])).toBe('2 积分/秒');
    expect(priceText(1, TRANSLATE_CREDITS_PER_SECOND[1], 19.2)).toBe('约 60 积分（20 秒 × 3 积分/秒，按成片时长结算）');
  });

  it('reads the languages answer: ready unless it says not, the server rate before the contract one', () => {
    expect(languagesView(undefined, 1)).toEqual({ languages: [], ready: true, byCaptions: false, perSecond: TRANSLATE_CREDITS_PER_SECOND[1] });
    const list = [{ id: 'en', name: '英语', icon: '🇬🇧' }];
    expect(languagesView({ list, ready: false, reader: '', prices: { 1: 5 } }, 1)).toEqual({ languages: list, ready: false, byCaptions: false, perSecond: 5 });
    expect(languagesView({ list, ready: true, reader: 'ocr' }, 1).byCaptions).toBe(true);
    expect(languagesView({ list, ready: true, reader: 'asr' }, 1).byCaptions).toBe(false);
    expect(languagesView({ list, prices: { 1: 5 } }, 2).perSecond).toBe(TRANSLATE_CREDITS_PER_SECOND[2]);
  });
});
