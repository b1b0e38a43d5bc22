/**
 * `npm run soak` — many processes, faults, nothing lost (issue 16). A throwaway PostgreSQL, 2 ROLE=api processes
 * behind a round-robin proxy and 2 ROLE=worker processes on one storage; users submit works, clone voices and
 * avatars and race to redeem codes while a chaos loop SIGKILLs a random process every 5–15 s and restarts it.
 * Then it checks from the database and the disk that nothing was lost, doubled, stuck or left behind, and prints
 * jobs per minute with 1 and with 2 workers. Exits non-zero when any invariant fails.
 *
 *   npm run soak -- [--works 200] [--users 20] [--minutes 30] [--codes 40] [--clones 3] [--kill-every 5-15] [--storage local|s3] [--no-chaos] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { API, OPERATOR_KEY_HEADER, WorkStatus, type CallDef } from '../../src/contract';
import { operatorKey } from '../../server/infra/data-dir';
import { jobTempRoot } from '../../server/infra/work-dirs';
import type { ApiTestClient } from '../support/app';
import { makeSpeech, makeVideo, mediaDir } from '../support/media';
import { S3Storage } from '../../server/infra/storage-s3';
import { startS3Peer } from '../support/peers/s3-peer';
import { startThrowawayPostgres } from '../support/postgres';
import { uploadFile } from '../support/upload';
import { codesRedeemedOnce, filesUnder, jobsFinished, ledgerBalances, noOrphanObjects, noTempFiles, worksChargedOnce, type Check } from './checks';
import { newSlot, startChaos, startProxy, type Slot } from './cluster';
import { newTally, retryingConnection, sleep, SoakClient, type Tally } from './client';

const { values: opts } = parseArgs({
  options: {
    works: { type: 'string', default: '200' },
    users: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '30' },
    codes: { type: 'string', default: '40' },
    clones: { type: 'string', default: '3' },
    storage: { type: 'string', default: 'local' },
    'kill-every': { type: 'string', default: '5-15' },
    'no-chaos': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const WORKS = Number(opts.works);
const USERS = Number(opts.users);
const CODES = Number(opts.codes);
const CLONES = Number(opts.clones);
const [KILL_MIN_S, KILL_MAX_S] = opts['kill-every']!.split('-').map(Number) as [number, number];
if (!(KILL_MIN_S > 0 && KILL_MAX_S >= KILL_MIN_S)) throw new Error(`--kill-every must be seconds as min-max, e.g. 5-15, got "${opts['kill-every']}"`);
const deadline = Date.now() + Number(opts.minutes) * 60_000;
const SCRIPT = '你好，欢迎光临。';
const SAMPLE_TEXT = '大家好，我是今天的主持人，欢迎收看我们的节目，今天给大家介绍一款新产品。';

/** What to tear down if the run dies half-way (processes and the cluster outlive a crashed parent otherwise). */
const teardown: (() => unknown)[] = [];

const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Storage the processes share: the local disk under the one DATA_DIR, or the S3 peer (one bucket); `keys` lists what it holds. */
async function startStorage(kind: string, dataDir: string): Promise<{ env: Record<string, string>; keys(): Promise<string[]>; stop(): Promise<void> }> {
  if (kind === 'local') return { env: {}, keys: async () => filesUnder(path.join(dataDir, 'objects')), stop: async () => undefined };
  if (kind === 's3') {
    const peer = await startS3Peer();
    const bucket = new S3Storage(peer.settings);
    return { env: peer.env, keys: async () => (await bucket.list('')).map((o) => o.key), stop: () => peer.stop() };
  }
  throw new Error(`--storage must be local or s3, got "${kind}"`);
}

async function main(): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-soak-'));
  const dataDir = path.join(root, 'data');
  const logDir = path.join(root, 'logs');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(logDir);
  log(`works ${WORKS}, users ${USERS}, codes ${CODES}, clones ${CLONES}, storage ${opts.storage}, chaos ${opts['no-chaos'] ? 'off' : `every ${opts['kill-every']} s`}; logs in ${logDir}`);

  const cluster = await startThrowawayPostgres();
  teardown.push(() => cluster.stop());
  const storage = await startStorage(opts.storage!, dataDir);
  const db = new pg.Client({ connectionString: cluster.url });
  await db.connect();
  const env = {
    DATA_DIR: dataDir, DATABASE_URL: cluster.url, LOG_LEVEL: 'warn', WEB_ROOT: '/nonexistent',
    // A killed worker's jobs come back after 4.5 missed beats (9 s) and retry a second later.
    JOB_POLL_SECONDS: '0.5', WORKER_HEARTBEAT_SECONDS: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_STOP_SECONDS: '5',
    ...storage.env,
  };
  const api = [await newSlot('api1', 'api', env, logDir), await newSlot('api2', 'api', env, logDir)];
  const workers = [await newSlot('worker1', 'worker', env, logDir), await newSlot('worker2', 'worker', env, logDir)];
  teardown.unshift(() => Promise.all([...api, ...workers].map((p) => p.stop('SIGKILL'))));
  // The first process migrates the database and writes the data directory's keys; the others find them.
  await api[0]!.start();
  await Promise.all([api[1]!.start(), workers[0]!.start()]);
  const proxy = await startProxy(api);
  const tally = newTally();
  const operator = operatorCaller(proxy.url, operatorKey(dataDir), tally);

  const dir = mediaDir();
  const avatarVideo = makeVideo(path.join(dir, 'avatar.mp4'), { width: 360, height: 640, seconds: 5 });
  const sample = await makeSpeech(path.join(dir, 'sample.mp3'), SAMPLE_TEXT);

  const publicVoice = (await operator(API.admin.voicePublish, { name: '公共声音', audio: sample, api: 'local' })).data.id as number;
  const publicAvatar = (await operator(API.admin.avatarPublish, { name: '公共主播', video: avatarVideo })).data.id as number;
  await until('the public voice and avatar', async () => {
    const { rows } = await db.query(`SELECT (SELECT generate_status FROM voices WHERE id = $1) AS v, (SELECT status FROM avatars WHERE id = $2) AS a`, [publicVoice, publicAvatar]);
    return rows[0].v === 2 && rows[0].a === 3;
  });
  const users: { id: number; client: SoakClient }[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `139${String(i).padStart(8, '0')}`;
    const id = (await operator(API.admin.userCreate, { username, password: 'abc123', credits: 100_000 })).data.id as number;
    const login = await new SoakClient(proxy.url, tally).call(API.account.login, { username, password: 'abc123' });
    if (login.code !== 0) throw new Error(`login ${username}: ${login.msg}`);
    users.push({ id, client: new SoakClient(proxy.url, tally, login.data.token) });
  }
  const codes = (await operator(API.admin.codeCreate, { credits: 7, count: CODES })).data.codes as string[];
  log(`ready: public voice ${publicVoice}, public avatar ${publicAvatar}, ${USERS} users, ${codes.length} codes`);

  const active: Slot[] = [...api, workers[0]!];
  const chaosErrors: string[] = [];
  const stopChaos = opts['no-chaos'] ? async () => undefined : startChaos(() => active, { minMs: KILL_MIN_S * 1000, maxMs: KILL_MAX_S * 1000 }, (err) => chaosErrors.push(String(err)));
  const kills = () => [...api, ...workers].reduce((s, p) => s + p.kills, 0);

  const acked = new Map<number, string>();
  const refused: string[] = [];
  const submit = async (phase: number, count: number) => {
    await Promise.all(users.map(async (u, ui) => {
      for (let k = ui; k < count; k += users.length) {
        const name = `p${phase}-u${ui}-${k}`;
        const reply = await u.client.call(API.works.create, { name, api: 'local', video_id: publicAvatar, user_voice_id: publicVoice, text: SCRIPT, drive: 'text' });
        if (reply.code === 0) acked.set(reply.data.id, name);
        else if (reply.code !== -1) refused.push(`${name}: ${reply.msg}`);
      }
    }));
  };
  const phaseDone = async (phase: number) => {
    const { rows } = await db.query(`SELECT count(*) FILTER (WHERE status IN ($2, $3))::int AS open FROM works WHERE name LIKE $1`, [`p${phase}-%`, WorkStatus.Queued, WorkStatus.Rendering]);
    return rows[0].open === 0;
  };
  const rate = async (phase: number) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n, extract(epoch FROM max(finished_at) - min(created_at))::float AS seconds FROM works WHERE name LIKE $1 AND status = $2`,
      [`p${phase}-%`, WorkStatus.Success],
    );
    return { works: rows[0].n as number, seconds: Number(rows[0].seconds), perMinute: (rows[0].n / Number(rows[0].seconds)) * 60 };
  };

  // While the works run, every user keeps its works page open: the list and the balance every 1–3 s.
  let browsing = true;
  const browse = Promise.all(users.map(async (u) => {
    while (browsing) {
      await u.client.call(API.works.list, { page: 1, limit: 20 });
      await u.client.call(API.account.credits, {});
      await sleep(1000 + Math.random() * 2000);
    }
  }));

  // Phase 1: one worker. Clones and code races run beside the works.
  const half = Math.floor(WORKS / 2);
  let killsBefore = kills();
  const redeemed = new Map<string, number>();
  const side = Promise.all([
    ...users.slice(0, CLONES).map((u, i) => cloneVoiceAndAvatar(u.client, i, sample, avatarVideo, tally)),
    ...users.map(async (u) => {
      for (const code of pick(codes, 6)) {
        await sleep(Math.random() * 20_000);
        const reply = await u.client.call(API.credits.cdkey, { code });
        if (reply.code === 0) redeemed.set(code, u.id);
      }
    }),
  ]);
  log(`phase 1: ${half} works on 1 worker`);
  await submit(1, half);
  await until('phase 1 works', () => phaseDone(1));
  const phase1 = { ...(await rate(1)), kills: kills() - killsBefore };
  log(`phase 1: ${phase1.works} works in ${phase1.seconds.toFixed(0)} s, ${phase1.kills} kills`);

  // Phase 2: both workers.
  await workers[1]!.start();
  active.push(workers[1]!);
  killsBefore = kills();
  log(`phase 2: ${WORKS - half} works on 2 workers`);
  await submit(2, WORKS - half);
  await until('phase 2 works', () => phaseDone(2));
  const phase2 = { ...(await rate(2)), kills: kills() - killsBefore };
  log(`phase 2: ${phase2.works} works in ${phase2.seconds.toFixed(0)} s, ${phase2.kills} kills`);
  await side;
  await until('clones and every queued job', async () => {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM avatars WHERE status = 1) + (SELECT count(*) FROM voices WHERE generate_status = 1)
            + (SELECT count(*) FROM pgboss.job WHERE name NOT LIKE '%-sweep' AND state IN ('created', 'retry', 'active'))::int AS open`,
    );
    return Number(rows[0].open) === 0;
  });

  browsing = false;
  await browse;
  await stopChaos();
  // A graceful stop for everyone left: what a deploy does; the killed ones' scratch was cleaned at their restarts.
  await Promise.all([...api, ...workers].map((p) => p.stop('SIGTERM')));
  await proxy.close();

  const { rows: dbWorks } = await db.query<{ id: number; name: string }>('SELECT id, name FROM works');
  const inDb = new Set(dbWorks.map((w) => w.id));
  const lost = [...acked.keys()].filter((id) => !inDb.has(id));
  const unacked = dbWorks.filter((w) => !acked.has(w.id));
  const checks: Check[] = [
    await jobsFinished(db),
    await worksChargedOnce(db),
    await ledgerBalances(db),
    await codesRedeemedOnce(db, redeemed),
    await noOrphanObjects(db, await storage.keys()),
    noTempFiles(jobTempRoot(dataDir)),
    { name: 'the client saw only spec replies (code 0/1/100) or connection errors it retried', problems: tally.nonSpec },
    { name: 'nothing acknowledged was lost', problems: lost.map((id) => `work ${id} (${acked.get(id)}) acknowledged but not in the database`) },
    { name: 'every kill was followed by a restart', problems: chaosErrors },
  ];
  const orphanCheck = checks[4] as Check & { objects?: number };
  const { rows: retried } = await db.query(`SELECT name, count(*)::int AS n FROM pgboss.job WHERE retry_count > 0 GROUP BY name ORDER BY name`);
  const { rows: doubled } = await db.query(`SELECT count(*)::int AS n FROM (SELECT name FROM works GROUP BY name HAVING count(*) > 1) d`);

  console.log('\n=== soak figures ===');
  console.log(`configuration: ${WORKS} works, ${USERS} users, ${codes.length} codes, ${CLONES} voice + avatar clones, storage ${opts.storage}, 2 api + 2 worker processes, ${os.cpus().length} cores`);
  console.log(`jobs per minute, 1 worker:  ${phase1.perMinute.toFixed(1)}  (${phase1.works} works in ${phase1.seconds.toFixed(0)} s, ${phase1.kills} kills)`);
  console.log(`jobs per minute, 2 workers: ${phase2.perMinute.toFixed(1)}  (${phase2.works} works in ${phase2.seconds.toFixed(0)} s, ${phase2.kills} kills)`);
  console.log(`kills survived: ${kills()} (${[...api, ...workers].map((p) => `${p.name} ${p.kills}`).join(', ')})`);
  console.log(`client: ${tally.calls} calls, ${tally.connectionRetries} connection errors retried, ${tally.nonSpec.length} non-spec replies`);
  console.log(`codes redeemed: ${redeemed.size} told to clients, ${(await db.query(`SELECT count(*)::int AS n FROM redeem_codes WHERE used_by IS NOT NULL`)).rows[0].n} in the database`);
  console.log(`works: ${acked.size} acknowledged, ${unacked.length} more created by a retried submission whose reply was lost, ${refused.length} refused${refused.length ? ` (${refused.slice(0, 3).join('; ')})` : ''}`);
  console.log(`jobs retried (their process was killed, or they failed once): ${retried.map((r) => `${r.name} ${r.n}`).join(', ') || 'none'}; ${orphanCheck.objects} objects in storage`);
  console.log(`lost: ${lost.length}; submitted twice under one name: ${doubled[0].n} (a retried submission)`);
  let failed = false;
  for (const c of checks) {
    console.log(`${c.problems.length ? 'FAIL' : 'ok  '} ${c.name}`);
    for (const p of c.problems.slice(0, 20)) console.log(`       ${p}`);
    failed ||= c.problems.length > 0;
  }

  await db.end();
  await storage.stop();
  cluster.stop();
  if (failed || opts.keep) log(`kept ${root} (data and process logs)`);
  else fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  return failed ? 1 : 0;
}

/** Operator calls (what `npm run admin` sends), through the proxy. */
function operatorCaller(url: string, key: string, tally: Tally) {
  return async (call: CallDef, body: Record<string, unknown>) => {
    tally.calls++;
    const reply = await retryingConnection(tally, async () => {
      const res = await fetch(`${url}${call.path}`, { method: call.method, headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key }, body: JSON.stringify(body) });
      return (await res.json()) as { code: number; msg: string; data: any };
    });
    if (reply.code !== 0) throw new Error(`${call.id}: ${reply.msg}`);
    return reply;
  };
}

/** A user clones a voice and an avatar from uploads (each upload flow retried whole when its connection drops). */
async function cloneVoiceAndAvatar(client: SoakClient, i: number, sample: string, video: string, tally: Tally): Promise<void> {
  const upload = (type: 'voice' | 'video', file: string) => retryingConnection(tally, () => uploadFile(client as ApiTestClient, type, file));
  const voice = await upload('voice', sample);
  if (voice.code === 0) await client.call(API.voices.create, { name: `声音${i}`, file_id: voice.data.file_id, api: 'local' });
  const avatar = await upload('video', video);
  if (avatar.code === 0) await client.call(API.avatars.clone, { name: `主播${i}`, file_id: avatar.data.file_id });
}

function pick<T>(from: T[], n: number): T[] {
  return [...from].sort(() => Math.random() - 0.5).slice(0, n);
}

/** Waits for done; past --minutes it says so and goes on, and the checks name what never finished. */
async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) {
    if (Date.now() > deadline) return log(`${what}: not finished within --minutes ${opts.minutes}; checking what is left`);
    await sleep(1000);
  }
}

async function abort(reason: unknown): Promise<never> {
  console.error(reason);
  for (const step of teardown) await Promise.resolve(step()).catch(() => undefined);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void abort(`${signal}: stopping the processes and the database`));

main().then(
  (code) => process.exit(code),
  (err) => abort(err),
);
