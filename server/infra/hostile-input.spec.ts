/**
 * Every call of the catalogue, over real HTTP, with values its schema might accept but the database would not:
 * ids past 32 bits, NUL characters, impossible calendar dates, enormous pause markers. Each field of each call
 * gets each value while the other fields hold values the schema accepts, so the hostile one is what decides.
 * The answer must always be the contract's shape and never the error path of an exception (MSG.serverError).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CALLS, MSG, type CallDef } from '../../src/contract';
import { DB_KINDS, startApp, type Reply, type TestApp } from '../../tests/support/app';
import { SCENES, baseline } from '../../tests/support/call-values';

const BIG_IDS = [2 ** 31, 2 ** 53 - 1];
const NUL_TEXT = 'a\u0000b';
const BAD_DATES = ['2024-02-30', '2024-13-45'];
const HUGE_PAUSE = 'a<#99999999999#>';

interface Case {
  field: string;
  value: unknown;
  /** The value cannot be right for this field: the call must refuse it (code ≠ 0). */
  mustRefuse: boolean;
}

function casesOf(base: Record<string, unknown>): Case[] {
  const cases: Case[] = [];
  for (const [field, value] of Object.entries(base)) {
    if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
      for (const big of BIG_IDS) cases.push({ field, value: big, mustRefuse: true });
    }
    if (typeof value === 'string') {
      cases.push({ field, value: NUL_TEXT, mustRefuse: true });
      cases.push({ field, value: `${value}\u0000`, mustRefuse: true });
      for (const date of BAD_DATES) cases.push({ field, value: date, mustRefuse: /^\d{4}-\d{2}-\d{2}$/.test(value) });
      cases.push({ field, value: HUGE_PAUSE, mustRefuse: false });
    }
    if (value === SCENES) {
      const scene = (patch: Record<string, unknown>) => JSON.stringify([{ ...JSON.parse(SCENES)[0], ...patch }]);
      cases.push({ field, value: scene({ text: HUGE_PAUSE }), mustRefuse: false });
      cases.push({ field, value: scene({ text: NUL_TEXT }), mustRefuse: true });
      for (const big of BIG_IDS) for (const id of ['voice_id', 'video_id', 'file_id']) cases.push({ field, value: scene({ [id]: big }), mustRefuse: true });
    }
  }
  return cases;
}

describe.each(DB_KINDS)('hostile values on every call of the catalogue (%s)', (kind) => {
  let t: TestApp;
  let users = 0;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t.close());

  /** Each call gets a fresh account (logout and password changes must not spoil the next call). */
  async function tokenFor(): Promise<string> {
    const id = await t.createUser(`1370000${String(++users).padStart(4, '0')}`, 'abc123', 100_000);
    return t.app.ctx.sessions.create(t.app.ctx.db, id, '127.0.0.1');
  }

  const send = async (call: CallDef, params: Record<string, unknown>, token: string): Promise<Reply> =>
    call.auth === 'operator' ? t.operator(call, params) : t.client(token).call(call, params);

  it('the generated baselines are accepted by their schemas (so the hostile value is what each case changes)', () => {
    const refused = ALL_CALLS.filter((call) => !call.request.safeParse(baseline(call)).success).map((c) => c.id);
    expect(refused).toEqual([]);
  });

  it('never answers outside the contract nor from an exception', { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let refusedAsRequired = 0;
    for (const call of ALL_CALLS) {
      const base = baseline(call);
      const token = await tokenFor();
      for (const c of casesOf(base)) {
        const reply = await send(call, { ...base, [c.field]: c.value }, token);
        const label = `${call.id} ${c.field}=${JSON.stringify(c.value).slice(0, 60)}`;
        const shaped = typeof reply.code === 'number' && typeof reply.msg === 'string' && 'data' in reply;
        if (!shaped || reply.status >= 500 || reply.msg === MSG.serverError) failures.push(`${label} → ${reply.status} ${JSON.stringify(reply).slice(0, 120)}`);
        else if (c.mustRefuse && reply.code === 0) failures.push(`${label} → accepted`);
        else if (c.mustRefuse) refusedAsRequired++;
      }
    }
    expect(failures).toEqual([]);
    expect(refusedAsRequired).toBeGreaterThan(ALL_CALLS.length);
  });
});
