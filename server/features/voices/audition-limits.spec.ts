import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, AuditionStatus, LIMITS, MSG } from '../../../src/contract';
import { DB_KINDS, startApp, type ApiTestClient, type TestApp } from '../../../tests/support/app';
import { makeSpeech, mediaDir } from '../../../tests/support/media';
import { until } from '../../../tests/support/wait';

/** Long enough that the first accepted audition is still being synthesized when the burst is answered. */
const LONG_TEXT = '今天我们来聊一聊数字人和声音克隆的故事。'.repeat(50);
const BURST = 10;

const audition = (c: ApiTestClient, voiceId: number, text: string) => c.call(API.voices.audition, { voice_id: voiceId, text });
const finished = (c: ApiTestClient, jobId: string) =>
  until(() => c.call(API.voices.auditionPoll, { job_id: jobId }), (r) => r.data?.status === AuditionStatus.Done || r.data?.status === AuditionStatus.Failed, 120_000);

/** Fires auditions all at once; returns the accepted job ids after checking every refusal is the limit's. */
async function burst(requests: Promise<{ code: number; msg: string; data: any }>[]): Promise<string[]> {
  const replies = await Promise.all(requests);
  for (const r of replies.filter((x) => x.code !== 0)) expect(r).toMatchObject({ code: 1, msg: MSG.auditionTooFrequent });
  return replies.filter((r) => r.code === 0).map((r) => r.data.job_id as string);
}

describe.each(DB_KINDS)('audition limits (%s)', (kind) => {
  let t: TestApp;
  let publicVoice: number;
  let phone = 15700000000;
  const userIds = new Map<ApiTestClient, number>();
  const newUser = async () => {
    const username = String(++phone);
    const id = await t.createUser(username, 'abc123');
    const client = await t.login(username, 'abc123');
    userIds.set(client, id);
    return client;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    const sample = await makeSpeech(path.join(mediaDir(), 'sample.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    const published = await t.operator(API.admin.voicePublish, { name: '公共声音', audio: sample, api: 'local' });
    expect(published.code).toBe(0);
    publicVoice = published.data.id;
    const viewer = await newUser();
    await until(() => viewer.call(API.voices.list, { source: 2, page: 1, limit: 10 }), (r) => r.data.list.some((v: any) => v.id === publicVoice), 60_000);
  }, 120_000);
  afterAll(() => t.close());

  it(`${BURST} simultaneous long auditions from one user: ${LIMITS.audition.maxRunning} start, the rest are told to wait; others are not held up`, { timeout: 180_000 }, async () => {
    const a = await newUser();
    const b = await newUser();
    const accepted = await burst(Array.from({ length: BURST }, () => audition(a, publicVoice, LONG_TEXT)));
    expect(accepted).toHaveLength(LIMITS.audition.maxRunning);
    expect((await audition(b, publicVoice, '别人的试听不受影响。')).code).toBe(0);

    for (const id of accepted) expect((await finished(a, id)).data.status).toBe(AuditionStatus.Done);
    // Once they have finished, the user may audition again.
    expect((await audition(a, publicVoice, '现在可以了。')).code).toBe(0);
  });

  it(`at most ${LIMITS.audition.perMinute} auditions a minute, even one at a time`, { timeout: 180_000 }, async () => {
    const a = await newUser();
    for (let i = 0; i < LIMITS.audition.perMinute; i++) {
      const start = await audition(a, publicVoice, `第${i + 1}次试听。`);
      expect(start.code).toBe(0);
      await finished(a, start.data.job_id);
    }
    // On a busy machine the loop can outlast a minute: date them all now, so the next one is the 11th of this minute.
    const dateJobs = (at: string) => t.app.ctx.db.query(`UPDATE speech_jobs SET created_at = ${at} WHERE user_id = $1`, [userIds.get(a)]);
    await dateJobs('now()');
    expect(await audition(a, publicVoice, '再来一次。')).toMatchObject({ code: 1, msg: MSG.auditionTooFrequent });
    // A minute later the allowance is back.
    await dateJobs(`now() - interval '61 seconds'`);
    expect((await audition(a, publicVoice, '再来一次。')).code).toBe(0);
  });

  it('guests from one IP share one allowance', { timeout: 180_000 }, async () => {
    await t.operator(API.admin.siteSet, { settings: { guest_credits: '50' } });
    const guests: ApiTestClient[] = [];
    for (let i = 0; i < 2; i++) {
      const made = await t.client().call(API.credits.tourist, {});
      expect(made.code).toBe(0);
      guests.push(t.client(made.data.token));
    }
    const accepted = await burst(Array.from({ length: BURST }, (_, i) => audition(guests[i % 2]!, publicVoice, LONG_TEXT)));
    expect(accepted).toHaveLength(LIMITS.audition.maxRunning);
    // A registered user on the same IP has an allowance of their own.
    expect((await audition(await newUser(), publicVoice, '注册用户不受游客限制。')).code).toBe(0);
  });
});
