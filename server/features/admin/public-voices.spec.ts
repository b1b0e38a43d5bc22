import { describe, expect, it } from 'vitest';
import { API } from '../../../src/contract';
import { DB_KINDS, useApp } from '../../../tests/support/app';
import { mediaDir } from '../../../tests/support/media';
import { auditionVoice, downloadTo, voicesOf } from '../../../tests/support/voices';
import { until } from '../../../tests/support/wait';
import { measureVoice } from '../../engines/speech';
import { SEEDED_PUBLIC_VOICES, seedPublicVoices } from './public-voices';

/** Above this a voice is heard as a woman's (the offline engine's own split between its variants is 150 Hz). */
const HIGH_VOICE_HZ = 150;

describe.each(DB_KINDS)("a fresh install's public voices (%s)", (kind) => {
  const t = useApp(kind);

  it('seeds the offline voices once: each trains, is listed, and speaks in its register', async () => {
    expect(await seedPublicVoices(t.app.ctx)).toEqual(SEEDED_PUBLIC_VOICES.map((v) => v.name));
    expect(await seedPublicVoices(t.app.ctx)).toEqual([]);
    const c = await t.user('13700000090');
    const names = SEEDED_PUBLIC_VOICES.map((v) => v.name);
    const listed = await until(() => voicesOf(c, 2), (v) => names.every((n) => v.list.some((x) => x.name === n && x.generate_status === 2)), 120_000);
    expect(listed.list.filter((v) => names.includes(v.name))).toHaveLength(names.length);

    const dir = mediaDir();
    for (const name of ['普通话女声', '普通话男声']) {
      const voice = listed.list.find((v) => v.name === name)!;
      const done = await auditionVoice(c, voice.id, '欢迎使用超级分身，今天天气很好。');
      expect(done.status).toBe(3);
      const { f0 } = await measureVoice(await downloadTo(t, done.url, dir), 'mp3');
      if (name === '普通话女声') expect(f0).toBeGreaterThan(HIGH_VOICE_HZ);
      else expect(f0).toBeLessThan(HIGH_VOICE_HZ);
    }
  });

  it('voice remove takes a public voice off the list for good; other ids are refused in Chinese', async () => {
    const c = await t.user('13700000091');
    const before = (await voicesOf(c, 2)).list;
    const target = before.find((v) => v.name === '粤语女声')!;
    expect(await t.operator(API.admin.voiceRemove, { id: target.id })).toMatchObject({ code: 0, data: { id: target.id, name: '粤语女声' } });
    expect((await voicesOf(c, 2)).list.map((v) => v.name)).not.toContain('粤语女声');
    // Removed once, it stays removed: seeding does not run again.
    expect(await seedPublicVoices(t.app.ctx)).toEqual([]);
    expect((await voicesOf(c, 2)).list.map((v) => v.name)).not.toContain('粤语女声');

    expect(await t.operator(API.admin.voiceRemove, { id: target.id })).toMatchObject({ code: 1, msg: `没有编号为 ${target.id} 的公共声音` });
    expect(await t.operator(API.admin.voiceRemove, { id: 'x' })).toMatchObject({ code: 1, msg: '公共声音ID必须是数字' });
    expect(await t.client().call(API.admin.voiceRemove, { id: before[0]!.id })).toMatchObject({ code: 1 });
    expect((await voicesOf(c, 2)).list.length).toBe(before.length - 1);
  });
});
