import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, BatchRowStatus, LIMITS, MSG, WorkStatus } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf, publishPublicVoice } from '../../../tests/support/voices';
import { makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { until } from '../../../tests/support/wait';
import { zipEntries } from '../../../tests/support/zip';
import { worksOf } from '../../../tests/support/works';

const dir = mediaDir();
const LINE = '大家好，欢迎光临。';

describe.each(DB_KINDS)('batch creation and the fair queue (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15500000001', '15500000002'], 2000);
  let avatar: number;
  let voice: number;

  const credits = creditsOf;
  const row = (over: Record<string, unknown> = {}) => ({ name: '商品介绍', text: LINE, video_id: avatar, user_voice_id: voice, api: 'local', ...over });
  const submit = (c: ApiTestClient, rows: unknown[], name = '双十一') => c.call(API.batch.create, { name, rows: JSON.stringify(rows) });
  const detail = (c: ApiTestClient, id: number) => c.call(API.batch.detail, { id });
  /** When each work left the queue (null: not yet), read from the works table. */
  const startedAt = async (ids: number[]) => {
    const { rows } = await t.app.ctx.db.query<{ id: number; render_started_at: Date | null }>('SELECT id, render_started_at FROM works WHERE id = ANY($1::int[])', [ids]);
    return new Map(rows.map((r) => [Number(r.id), r.render_started_at ? new Date(r.render_started_at).getTime() : null]));
  };

  beforeAll(async () => {
    // A public avatar and voice, so both users may use them.
    avatar = await readyAvatar(t, null, makeVideo(path.join(dir, 'batch-avatar.mp4'), { width: 640, height: 360, seconds: 3 }), '公共主播');
    const sample = await makeSpeech(path.join(dir, 'batch-voice.mp3'), '大家好，我是今天的主持人。');
    voice = await publishPublicVoice(t, a, sample);
  }, 120_000);

  it('refuses a batch with a bad row whole, naming each bad row; checks rows as /create does', async () => {
    const before = await credits(a);
    const rows = [row(), row({ text: '' }), row({ video_id: 999_999 }), row({ user_voice_id: 999_999 }), row({ text: '好'.repeat(LIMITS.scriptMaxChars + 1) })];
    const expected = [
      { index: 2, error: MSG.scriptRequired },
      { index: 3, error: MSG.avatarRequired },
      { index: 4, error: MSG.notFound },
      { index: 5, error: MSG.scriptTooLong(LIMITS.scriptMaxChars) },
    ];
    expect(await submit(a, rows)).toMatchObject({ code: 1, msg: MSG.batchRejected(expected) });
    expect(await credits(a)).toBe(before);
    expect(await worksOf(a)).toEqual([]);
    expect((await a.call(API.batch.list, { page: 1, limit: 10 })).data).toMatchObject({ list: [], total: 0 });

    // The grid's check: the same errors per row, and the good row's price.
    const checked = await a.call(API.batch.check, { rows: JSON.stringify(rows) });
    expect(checked.code).toBe(0);
    expect(checked.data.rows.filter((r: any) => r.error)).toEqual(expected.map((e) => ({ ...e, credits: 0 })));
    expect(checked.data.rows[0].credits).toBeGreaterThan(0);
    expect(checked.data.total).toBe(checked.data.rows[0].credits);

    expect(await submit(a, [])).toMatchObject({ code: 1, msg: MSG.batchEmpty });
    expect(await a.call(API.batch.create, { name: 'x', rows: '不是表格' })).toMatchObject({ code: 1, msg: MSG.batchRowsInvalid });
    expect(await submit(a, Array.from({ length: LIMITS.batch.maxRows + 1 }, () => row()))).toMatchObject({ code: 1, msg: MSG.batchTooManyRows(LIMITS.batch.maxRows) });
  });

  it('refuses with 积分不足 before anything is queued when the whole estimate does not fit', async () => {
    const perRow = (await a.call(API.batch.check, { rows: JSON.stringify([row()]) })).data.total as number;
    const poor = await t.user('15500000003', perRow * 2);
    const balance = await credits(poor);
    const rows = [row(), row(), row()];
    expect(await submit(poor, rows)).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await credits(poor)).toBe(balance);
    expect(await worksOf(poor)).toEqual([]);
  });

  it('takes users in turn: B\'s single work starts before A\'s fourth row; cancel returns exactly the unstarted rows\' credits', async () => {
    const aBefore = await credits(a);
    const created = await submit(a, Array.from({ length: 8 }, (_, i) => row({ name: `门店${i + 1}` })));
    expect(created.code).toBe(0);
    const batchId = created.data.id as number;
    const single = await b.call(API.works.create, { name: '一条', text: LINE, video_id: avatar, user_voice_id: voice, api: 'local' });
    expect(single.code).toBe(0);
    const aRows = (await detail(a, batchId)).data.rows as any[];
    expect(aRows.map((r) => r.name)).toEqual(Array.from({ length: 8 }, (_, i) => `门店${i + 1}`));
    const perRow = (aBefore - (await credits(a))) / 8;

    // B's waiting card says its place, ahead of A's fourth row.
    const cards = new Map((await worksOf(a)).map((w) => [w.id, w]));
    const bCard = (await worksOf(b)).find((w) => w.id === single.data.id);
    const fourth = cards.get(aRows[3].work_id);
    expect(fourth).toMatchObject({ status: WorkStatus.Queued, queue_ahead: expect.any(Number) });
    expect(bCard.queue_ahead).toBeLessThan(fourth.queue_ahead);

    // Another user's batch is neither readable nor cancellable.
    expect(await detail(b, batchId)).toMatchObject({ code: 1, msg: MSG.batchMissing });
    expect(await b.call(API.batch.cancel, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchMissing });
    expect(await b.call(API.batch.retry, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchMissing });
    expect((await b.call(API.batch.list, { page: 1, limit: 10 })).data.total).toBe(0);

    await until(() => worksOf(b), (l) => l[0]?.status === WorkStatus.Success, 120_000);
    // B's work is done, and A's fourth row has not even started.
    expect((await startedAt([aRows[3].work_id])).get(aRows[3].work_id)).toBeNull();
    const cancel = await a.call(API.batch.cancel, { id: batchId });
    expect(cancel.code).toBe(0);
    const { cancelled } = cancel.data;
    expect(cancelled).toBeGreaterThan(0);
    const refunds = (await a.call(API.credits.log, { page: 1, limit: 100 })).data.list.filter((l: any) => l.action_name === '视频合成取消退回');
    expect(refunds.map((l: any) => l.credits)).toEqual(Array.from({ length: cancelled }, () => perRow));
    expect(await a.call(API.batch.cancel, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchNothingToCancel });

    const settled = await until(() => detail(a, batchId), (r) => r.data.counts.queued + r.data.counts.running === 0, 120_000);
    const { counts, rows } = settled.data;
    expect(counts).toMatchObject({ cancelled, done: 8 - cancelled, failed: 0 });
    for (const r of rows.filter((x: any) => x.status === BatchRowStatus.Cancelled)) expect(r.reason).toBe(MSG.batchRowCancelled);
    // The queue took B's work before A's third row (B's turn came with A's second), and A's fourth row after it or never.
    const starts = await startedAt([single.data.id, rows[2].work_id, rows[3].work_id]);
    const bStart = starts.get(single.data.id)!;
    expect(starts.get(rows[2].work_id) ?? Infinity).toBeGreaterThan(bStart);
    expect(starts.get(rows[3].work_id) ?? Infinity).toBeGreaterThan(bStart);
    expect(await a.call(API.batch.retry, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchNothingToRetry });
    const zip = await a.call(API.batch.zip, { id: batchId });
    expect(zip.code).toBe(0);
    const entries = await zipEntries(Buffer.from(await (await fetch(`${t.url}${zip.data.url}`)).arrayBuffer()));
    const doneRows = rows.filter((x: any) => x.status === BatchRowStatus.Done);
    // Each done row's video and its subtitles (the speech's timed text), named after the row.
    expect(entries.sort()).toEqual(doneRows.flatMap((x: any) => ['mp4', 'srt'].map((ext) => `${String(x.index).padStart(3, '0')}-${x.name}.${ext}`)).sort());
    expect(await b.call(API.batch.zip, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchMissing });
    const listed = (await a.call(API.batch.list, { page: 1, limit: 10 })).data;
    expect(listed.list[0]).toMatchObject({ id: batchId, name: '双十一', total: 8, counts });
  }, 240_000);

  it(`renders at most ${LIMITS.batch.perUserRunning} of one user's works at once: the next waits for one of them, another user's goes first`, async () => {
    const c = await t.user('15500000004', 2000);
    const d = await t.user('15500000005', 2000);
    const db = t.app.ctx.db;
    // Two of C's works render on other machines (theirs is the row's state; their jobs are those machines').
    const [elsewhere, waiting] = await t.withJobsPaused(async () => {
      const made = await submit(c, [row({ name: '别处一' }), row({ name: '别处二' }), row({ name: '等待' })], '限流');
      expect(made.code, made.msg).toBe(0);
      const ids = ((await detail(c, made.data.id)).data.rows as any[]).map((r) => r.work_id as number);
      const others = ids.slice(0, LIMITS.batch.perUserRunning);
      await db.query(`UPDATE works SET status = ${WorkStatus.Rendering}, render_started_at = now() WHERE id = ANY($1::int[])`, [others]);
      await db.query(`DELETE FROM pgboss.job WHERE name = 'works-render' AND (data->>'workId')::int = ANY($1::int[])`, [others]);
      return [others, ids.at(-1)!] as const;
    });
    // D's work joins at the turn of C's third and after it: without the limit, C's third would render first.
    const other = await d.call(API.works.create, { name: '别人的', text: LINE, video_id: avatar, user_voice_id: voice, api: 'local' });
    expect(other.code, other.msg).toBe(0);
    await until(() => worksOf(d), (l) => l[0]?.status === WorkStatus.Success, 120_000);
    // D's work came and went; C's third is still queued, not started.
    expect((await worksOf(c)).find((w) => w.id === waiting)).toMatchObject({ status: WorkStatus.Queued });
    expect((await startedAt([waiting])).get(waiting)).toBeNull();
    // One of the other machines finishes: C's third starts and is done.
    await db.query(`UPDATE works SET status = ${WorkStatus.Failed} WHERE id = $1`, [elsewhere[0]]);
    await until(() => worksOf(c), (l) => l.find((w) => w.id === waiting)?.status === WorkStatus.Success, 120_000);
  }, 240_000);

  it('retries the failed rows as new works: the same row, charged again, then done', async () => {
    const setLocal = (engine: string) => t.operator(API.admin.channelSet, { api: 'local', kind: 'video', engine, enabled: 'false' });
    // The channel's engine is taken away while the rows wait: they fail, their credits come back.
    const batchId = await t.withJobsPaused(async () => {
      const made = await submit(a, [row({ name: '重试一' }), row({ name: '重试二' })], '重试');
      expect(made.code, made.msg).toBe(0);
      expect((await setLocal('none')).code).toBe(0);
      return made.data.id as number;
    });
    const failed = await until(() => detail(a, batchId), (r) => r.data.counts.failed === 2, 120_000);
    expect(failed.data.counts).toMatchObject({ failed: 2, done: 0 });
    const firstWorks = failed.data.rows.map((r: any) => r.work_id);
    expect((await t.operator(API.admin.channelSet, { api: 'local', kind: 'video', engine: 'local', enabled: 'true' })).code).toBe(0);
    const before = await credits(a);
    const retried = await a.call(API.batch.retry, { id: batchId });
    expect(retried).toMatchObject({ code: 0, data: { retried: 2 } });
    expect(await credits(a)).toBeLessThan(before);
    const done = await until(() => detail(a, batchId), (r) => r.data.counts.done === 2, 120_000);
    expect(done.data.rows.map((r: any) => r.name)).toEqual(['重试一', '重试二']);
    // Each row now points at its new work; the failed ones stay in the works list as they were.
    expect(done.data.rows.map((r: any) => r.work_id).every((id: number, i: number) => id !== firstWorks[i])).toBe(true);
    expect(await a.call(API.batch.retry, { id: batchId })).toMatchObject({ code: 1, msg: MSG.batchNothingToRetry });
  }, 240_000);
});
