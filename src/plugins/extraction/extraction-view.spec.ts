import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract';
import { linkProblem } from '../../core';
import { anyProcessing, AUDIO_EXTRACTION, byUpload, downloadName, saveName, VIDEO_EXTRACTION } from './extraction-view';
import { sharedVideoProblem as uploadProblem } from '../../core';

describe('extraction screens', () => {
  it('names a saved item after the first 15 characters of the description', () => {
    expect(saveName('  今天天气真好，一起去公园散步吧 #日常 #生活')).toBe('今天天气真好，一起去公园散步吧');
    expect(saveName('短')).toBe('短');
    expect(downloadName({ id: 7, desc: '今天 天气/真好' }, VIDEO_EXTRACTION)).toBe('今天_天气_真好.mp4');
    expect(downloadName({ id: 7, desc: '' }, AUDIO_EXTRACTION)).toBe('提取7.mp3');
  });

  it('checks the local upload and the pasted text before sending', () => {
    expect(uploadProblem({ name: 'a.MOV', size: 10 })).toBeNull();
    expect(uploadProblem({ name: 'a.mp4', size: 501 * 1024 * 1024 })).toBe(MSG.extractVideoInvalid);
    expect(uploadProblem({ name: 'a.avi', size: 10 })).toBe(MSG.extractVideoInvalid);
    expect(linkProblem('  ')).toBe(MSG.extractionLinkRequired);
    expect(linkProblem('没有链接')).toBe(MSG.extractionLinkMissing);
    expect(linkProblem('复制打开抖音 https://v.douyin.com/x/ 看看')).toBeNull();
  });

  it('polls while a record is processing', () => {
    expect(anyProcessing([{ status: 3 }, { status: 1 }])).toBe(true);
    expect(anyProcessing([{ status: 3 }, { status: 4 }])).toBe(false);
  });

  it('only the audio screen uploads, and only on its 本地上传 way', () => {
    expect([byUpload(AUDIO_EXTRACTION, 2), byUpload(AUDIO_EXTRACTION, 1), byUpload(VIDEO_EXTRACTION, 2)]).toEqual([true, false, false]);
  });
});
