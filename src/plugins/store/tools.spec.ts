import { describe, expect, it } from 'vitest';
import { findRoute } from '../../contract';
import { STORE_BANNERS, STORE_SECTIONS } from './tools';

describe('store launcher', () => {
  it('has the four sections of part 2 §1 in order', () => {
    expect(STORE_SECTIONS.map((s) => s.title)).toEqual(['爆款文案', 'AI图片/视频', '提取文件', '音频处理']);
  });

  it('opens only routes of the routing table, titled as the table titles them', () => {
    const tools = STORE_SECTIONS.flatMap((s) => s.tools).filter((t) => !t.comingSoon);
    expect(tools.map((t) => t.path)).toEqual([
      '/store/aiChat', '/copywrite/index', '/store/wsImage', '/store/wsVideo', '/store/tsVideo',
      '/store/extraction', '/store/audioExtraction', '/store/sea', '/store/dubbing/index', '/store/music/index',
    ]);
    for (const t of tools) expect(t.title).toBe(findRoute(t.path!)!.title);
    for (const b of STORE_BANNERS) expect(findRoute(b.path)).toBeDefined();
  });

  it('marks exactly one card (专属文案) as coming soon, with no route', () => {
    const soon = STORE_SECTIONS.flatMap((s) => s.tools).filter((t) => t.comingSoon);
    expect(soon.map((t) => t.title)).toEqual(['专属文案']);
    expect(soon[0]!.path).toBeUndefined();
  });
});
