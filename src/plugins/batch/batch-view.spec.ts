import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract';
import { TEMPLATE_HEADERS, closestNames, resolveRow, rowsFromCells, type Catalog } from './batch-view';

const catalog: Catalog = {
  avatars: [{ id: 7, name: '主播小美' }],
  voices: [{ id: 3, name: '公共·店长' }, { id: 4, name: '温柔女声' }, { id: 5, name: '新闻男声' }],
  channels: [{ api: 'local', name: '本地合成' }],
  music: [{ id: 'lib-1', name: '轻快' }],
};

describe('batch rows from a table', () => {
  it('finds the columns by the template\'s headers, in any order, and leaves empty rows out', () => {
    const rows = rowsFromCells([['文案', '名称', '声音', '数字人'], ['你好。', '一', '公共·店长', '主播小美'], ['', '', '', '']]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: '一', text: '你好。', voice: '公共·店长', avatar: '主播小美', subtitles: '否' });
  });

  it('reads headerless cells (pasted) in the template\'s order', () => {
    const [row] = rowsFromCells([['二', '大家好。', '主播小美', '温柔女声', '本地合成', '是', '轻快']]);
    expect(resolveRow(row!, catalog)).toEqual({ fields: { name: '二', text: '大家好。', video_id: 7, user_voice_id: 4, api: 'local', subtitles: 1, bgm: 'lib-1' } });
    expect(TEMPLATE_HEADERS).toHaveLength(7);
  });

  it('answers an unknown name with the closest ones', () => {
    const [row] = rowsFromCells([['三', '好。', '主播小美', '公共·店员', '本地合成']]);
    expect(resolveRow(row!, catalog)).toEqual({ field: 'voice', error: `${MSG.batchVoiceUnknown('公共·店员')}${MSG.batchClosest(['公共·店长', '温柔女声', '新闻男声'])}` });
    expect(closestNames('店长', ['新闻男声', '公共·店长'])[0]).toBe('公共·店长');
  });
});
