import { describe, expect, it } from 'vitest';
import { pinyinKeywords } from './pinyin-keywords';

describe('pinyinKeywords', () => {
  it('gives the full pinyin and the initials of the whole title and of each Chinese run', () => {
    const keys = pinyinKeywords('前往：我的作品').split(',');
    expect(keys).toEqual(expect.arrayContaining(['qianwangwodezuopin', 'qwwdzp', 'wodezuopin', 'wdzp', 'qianwang']));
  });

  it('reads words in context (合成 is hecheng, 重 in 重新 is chong)', () => {
    expect(pinyinKeywords('多场景：提交合成').split(',')).toEqual(expect.arrayContaining(['tijiaohecheng', 'tjhc']));
    expect(pinyinKeywords('重新合成').split(',')).toContain('chongxinhecheng');
  });

  it('has nothing to add for text without Chinese', () => {
    expect(pinyinKeywords('Theme 42')).toBe('');
  });
});
