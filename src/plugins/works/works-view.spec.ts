import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../../tests/support/react-host';
import type { Work } from '../../contract';
import { WORKS_TABS, downloadFileName, fromTranslate, fromWork, inProgress, isAudioUrl, tabFromQuery, tabsOf, waitingMessage, workPhase } from './works-view';

describe('works tabs', () => {
  it('has the spec six tabs and ours (一键成片) under two levels, with distinct type2 per level', () => {
    expect(tabsOf(0).map((t) => t.title)).toEqual(['数字人视频', '宠物视频', '照片说话', '翻译视频', '一键成片']);
    expect(tabsOf(1).map((t) => t.title)).toEqual(['多场景视频', '多场景音频']);
    for (const level of [0, 1] as const) {
      const type2 = tabsOf(level).map((t) => t.type2);
      expect(new Set(type2).size).toBe(type2.length);
    }
    expect(WORKS_TABS.find((t) => t.key === 'translate')!.type2).toBe(3);
  });

  it('selects the tab from type1 and type2', () => {
    expect(tabFromQuery({}).key).toBe('avatar');
    expect(tabFromQuery({ type1: '0', type2: '3' }).key).toBe('translate');
    expect(tabFromQuery({ type1: '0', type2: '2' }).key).toBe('pet');
    expect(tabFromQuery({ type1: '0', type2: '4' }).key).toBe('photo');
    expect(tabFromQuery({ type1: '1' }).key).toBe('multiVideo');
    expect(tabFromQuery({ type1: '1', type2: '2' }).key).toBe('multiAudio');
    expect(tabFromQuery({ type1: '1', type2: '9' }).key).toBe('multiVideo');
    expect(tabFromQuery({ type1: 'x', type2: 'y' }).key).toBe('avatar');
  });

  it('filters each list as works.list documents', () => {
    const filters = Object.fromEntries(WORKS_TABS.map((t) => [t.key, t.filter]));
    expect(filters).toEqual({
      avatar: { is_multi: 0, photo_type: 0, oneclick: 0 },
      pet: { is_multi: 0, photo_type: 2 },
      photo: { is_multi: 0, photo_type: 1 },
      translate: 'translate',
      oneclick: { is_multi: 0, oneclick: 1 },
      multiVideo: { is_multi: 1, only_audio: 0 },
      multiAudio: { is_multi: 1, only_audio: 1 },
    });
  });
});

describe('work status', () => {
  it('reads 3 as done, 4 as failed, anything else as waiting', () => {
    expectAnswers(workPhase, [
      [3, 'done'],
      [4, 'failed'],
      [1, 'waiting'],
      [2, 'waiting'],
      [undefined, 'waiting'],
    ]);
  });

  it('gives each channel its waiting message', () => {
    expect(waitingMessage('ou')).toMatch(/排队训练/);
    expect(waitingMessage('gj')).toMatch(/免费.*不确定/);
    expect(waitingMessage('df')).toMatch(/3-5 分钟/);
    expect(waitingMessage('fy')).toMatch(/6-10 分钟/);
    expect(waitingMessage('local')).toBe('本地合成中');
    expect(waitingMessage('mm')).toBe('视频合成中，请耐心等待');
  });

  it('keeps polling while anything is in progress', () => {
    expect(inProgress([{ status: 3 }, { status: 4 }])).toBe(false);
    expect(inProgress([{ status: 3 }, { status: 1 }])).toBe(true);
    expect(inProgress([], 2)).toBe(true);
    expect(inProgress([], 0)).toBe(false);
  });

  it('maps works and translated videos to cards', () => {
    const w: Work = { id: 1, name: 'a', url: '/v.mp4', cover: '/c.jpg', status: 3, api_name: '本地合成', api_key: 'local', create_time: '2026-01-01 10:00:00', duration: 5 };
    expect(fromWork(w)).toMatchObject({ id: 1, kind: 'work', apiKey: 'local', apiName: '本地合成', createTime: '2026-01-01 10:00:00' });
    expect(fromWork(w).srt).toBeUndefined();
    expect(fromWork({ ...w, srt: '/s.srt' }).srt).toBe('/s.srt');
    expect(fromTranslate({ id: 2, name: 't', url: '/t.mp4' })).toMatchObject({ kind: 'translate', status: 3, cover: '' });
    expect(fromTranslate({ id: 2, name: 't', url: '' }).status).toBe(1);
    expect(fromTranslate({ id: 2, name: 't', url: '', status: 4, reason: 'x' })).toMatchObject({ status: 4, reason: 'x' });
  });
});

describe('files', () => {
  it('names downloads after the work, with the url extension', () => {
    expectAnswers(downloadFileName, [
      ['我的视频', '/storage/1/abc.mp4?exp=1&sig=x', '我的视频.mp4'],
      ['a/b:c*?', '/x.mp3', 'a b c.mp3'],
      ['  ', '/x', '未命名.mp4'],
      ['x'.repeat(100), '/x.mp4', `${'x'.repeat(80)}.mp4`],
    ]);
  });

  it('tells audio urls apart', () => {
    expect(isAudioUrl('/s/a.mp3?sig=1')).toBe(true);
    expect(isAudioUrl('/s/a.mp4')).toBe(false);
  });
});
