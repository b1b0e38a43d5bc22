import { describe, expect, it } from 'vitest';
import { MATERIAL_SOURCES, MATERIAL_TYPES, MSG } from '../../contract';
import { MATERIAL_TABS, SOURCE_OPTIONS, UPLOAD_RULES, emptyText, excerpt, originLabel, sourceFromQuery, typeFromQuery } from './material-view';

describe('material view helpers', () => {
  it('covers every material type and source of the contract', () => {
    expect(MATERIAL_TABS.map((t) => t.type)).toEqual([...MATERIAL_TYPES]);
    expect(SOURCE_OPTIONS.map((s) => s.value)).toEqual([...MATERIAL_SOURCES]);
    expect(SOURCE_OPTIONS[0]!.label).toBe('全部');
  });

  it('reads the query, falling back to video and all', () => {
    expect(typeFromQuery('audio')).toBe('audio');
    expect(typeFromQuery('nope')).toBe('video');
    expect(typeFromQuery(undefined)).toBe('video');
    expect(sourceFromQuery('2')).toBe(2);
    expect(sourceFromQuery('1')).toBe(1);
    expect(sourceFromQuery('x')).toBe(0);
  });

  it('labels the origin', () => {
    expect(originLabel({ source: 2, origin: 'analyse' })).toBe('提取保存');
    expect(originLabel({ source: 2, origin: 'copy_chat' })).toBe('文案火花');
    expect(originLabel({ source: 2, origin: 'copywrite' })).toBe('文案提取');
    expect(originLabel({ source: 1 })).toBe('我上传的');
    expect(originLabel({ source: 2 })).toBe('工具保存');
  });

  it('cuts text excerpts', () => {
    expect(excerpt('  a\n\n b  ')).toBe('a b');
    expect(excerpt('x'.repeat(10), 4)).toBe('xxxx…');
    expect(excerpt(undefined)).toBe('');
  });

  it('says how each list gets filled', () => {
    expect(emptyText('text', 0).title).toBe('暂无文本素材');
    expect(emptyText('text', 0).description).toMatch(/文案火花/);
    expect(emptyText('video', 2).description).toMatch(/保存到素材库/);
    expect(emptyText('image', 1).description).toMatch(/上传素材/);
  });
});

describe('material upload rules', () => {
  const MB = 1024 * 1024;
  it('checks format and size per type', () => {
    expect(UPLOAD_RULES.video.check({ name: 'a.MOV', size: MB })).toBeNull();
    expect(UPLOAD_RULES.video.check({ name: 'a.avi', size: MB })).toBe(MSG.avatarVideoInvalid);
    expect(UPLOAD_RULES.video.check({ name: 'a.mp4', size: 501 * MB })).toBe(MSG.avatarVideoInvalid);
    expect(UPLOAD_RULES.audio.check({ name: 'a.m4a', size: MB })).toBeNull();
    expect(UPLOAD_RULES.audio.check({ name: 'a.ogg', size: MB })).toBe(MSG.audioInvalid);
    expect(UPLOAD_RULES.audio.check({ name: 'a.mp3', size: 21 * MB })).toBe(MSG.audioTooLarge(20));
    expect(UPLOAD_RULES.image.check({ name: 'a.jpeg', size: MB })).toBeNull();
    expect(UPLOAD_RULES.image.check({ name: 'a.gif', size: MB })).toBe(MSG.imageInvalid);
    expect(UPLOAD_RULES.image.check({ name: 'a.png', size: 11 * MB })).toBe(MSG.imageTooLarge);
    expect(UPLOAD_RULES.audio.fileType).toBe('voice');
  });
});
