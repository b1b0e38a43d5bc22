import { describe, expect, it } from 'vitest';
import { API, MSG, ResultCode } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';

describe.each(DB_KINDS)('notices (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15100000001', '15100000002']);
  const publish = async (title: string, desc = '', content = '') => (await t.operator(API.admin.noticeAdd, { title, desc, content })).data.id as number;
  const listOf = async (c: ApiTestClient) => (await c.call(API.notice.list, {})).data.list as { id: number; title: string; read: number; create_time: string }[];

  it('lists notices with a per-user read mark, and the detail marks it read', async () => {
    expect((await a.call(API.notice.list, {})).data.list).toEqual([]);
    const id = await publish('系统升级', '今晚维护', '<p>正文</p>');
    expect((await a.call(API.notice.list, {})).data.list[0]).toMatchObject({ id, title: '系统升级', desc: '今晚维护', read: 0 });
    expect((await a.call(API.notice.detail, { id })).data).toMatchObject({ id, content: '<p>正文</p>' });
    expect((await a.call(API.notice.list, {})).data.list[0].read).toBe(1);
    expect((await b.call(API.notice.list, {})).data.list[0].read).toBe(0);
    expect(await a.call(API.notice.detail, { id: 999_999 })).toMatchObject({ code: 1, msg: MSG.notFound });
    expect((await a.call(API.notice.detail, { id: 'abc' })).code).toBe(1);
    expect((await t.operator(API.admin.noticeAdd, { title: '' })).code).toBe(1);
  });

  it('lists newest first with the publish time; the detail carries title, summary and time', async () => {
    const older = await publish('旧公告', '旧摘要');
    const newer = await publish('新公告', '新摘要', '<b>新</b>');
    const list = await listOf(a);
    expect(list.slice(0, 2).map((n) => n.id)).toEqual([newer, older]);
    expect(list[0]!.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const detail = (await a.call(API.notice.detail, { id: newer })).data;
    expect(detail).toEqual({ id: newer, title: '新公告', desc: '新摘要', create_time: list[0]!.create_time, content: '<b>新</b>' });
  });

  it('keeps each user\'s read state apart: reading one notice marks only that one, only for that user, and twice is fine', async () => {
    const first = await publish('第一条');
    const second = await publish('第二条');
    expect((await b.call(API.notice.detail, { id: first })).code).toBe(0);
    expect((await b.call(API.notice.detail, { id: first })).code).toBe(0);
    const forB = await listOf(b);
    expect(forB.find((n) => n.id === first)!.read).toBe(1);
    expect(forB.find((n) => n.id === second)!.read).toBe(0);
    const forA = await listOf(a);
    expect(forA.find((n) => n.id === first)!.read).toBe(0);
    expect(forA.find((n) => n.id === second)!.read).toBe(0);
  });

  it('answers code 100 without a session', async () => {
    const id = await publish('需要登录');
    expect((await t.client().call(API.notice.list, {})).code).toBe(ResultCode.SessionExpired);
    expect((await t.client().call(API.notice.detail, { id })).code).toBe(ResultCode.SessionExpired);
  });
});
