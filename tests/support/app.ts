/**
 * A real server for server tests: build(config) on PGlite or on a fresh PostgreSQL database, listening on a
 * free loopback port, and a client that talks to it over real HTTP through the signed envelope.
 */
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { OPERATOR_KEY_HEADER, TOKEN_HEADER, openReply, paramsInQuery, sealRequest, type CallDef, type CallRequest, API } from '../../src/contract';
import { build, jobHandlers } from '../../server/app';
import { FEATURES } from '../../server/features';
import type { ServerConfig } from '../../server/infra/config';
import { operatorKey } from '../../server/infra/data-dir';
import { cheapenPasswordHashesForTests } from '../../server/infra/passwords';
import { pgliteImage, seedPgliteData } from './pglite-template';
import { tempDir } from './temp-dirs';
import { createDatabase } from './postgres';
import { DB_KINDS, type DbKind } from './db-kinds';
import { TEST_SHORT_SIDE } from './render-size';

export type { DbKind };
export { DB_KINDS };

export interface Reply<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

/** A call's fields as the browser sends them: a checked call sealed into the envelope, else each value as text. */
export function callFields(call: CallDef, params: unknown): Record<string, string> {
  return call.checked ? sealRequest(params) : Object.fromEntries(Object.entries(params as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

export class ApiTestClient {
  constructor(
    readonly url: string,
    public token?: string,
  ) {}

  /** Calls by contract entry, sealed as the browser would. */
  async call<C extends CallDef>(call: C, params: CallRequest<C> | Record<string, unknown> = {}, token = this.token): Promise<Reply<any>> {
    return this.raw(call.method, call.path, callFields(call, params), token);
  }

  /** Sends exactly these fields (for envelope abuse tests). */
  async raw(method: string, pathname: string, fields: Record<string, string>, token?: string, headers: Record<string, string> = {}): Promise<Reply<any>> {
    const form = new URLSearchParams(fields);
    const inQuery = paramsInQuery(method as never);
    const res = await fetch(`${this.url}${pathname}${inQuery ? `?${form}` : ''}`, {
      method,
      headers: { ...(token ? { [TOKEN_HEADER]: token } : {}), ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
      body: inQuery ? undefined : form,
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (typeof body.sign === 'string') {
      const opened = openReply(body);
      if (!opened.ok) throw new Error(`reply failed verification: ${opened.reason}`);
      return { status: res.status, ...opened.value } as Reply;
    }
    return { status: res.status, ...(body as { code: number; msg: string; data: unknown }) };
  }
}

/**
 * Calls that keep every reply as JSON text in `seen`, for specs that look for a secret (an operator's prompt) in
 * whatever the server answered.
 */
export function recordingCalls() {
  const seen: string[] = [];
  const call = async <C extends CallDef>(client: ApiTestClient, c: C, params: Record<string, unknown> = {}): Promise<Reply<any>> => {
    const reply = await client.call(c, params);
    seen.push(JSON.stringify(reply));
    return reply;
  };
  return { seen, call };
}

export interface TestApp {
  kind: DbKind;
  app: FastifyInstance;
  url: string;
  dataDir: string;
  client(token?: string): ApiTestClient;
  /** Operator call with the data directory's key (what `npm run admin` does). */
  operator<C extends CallDef>(call: C, body: Record<string, unknown>): Promise<Reply<any>>;
  createUser(username: string, password: string, credits?: number): Promise<number>;
  login(username: string, password: string): Promise<ApiTestClient>;
  /** A new account (password abc123) with these credits, logged in. */
  user(username: string, credits?: number): Promise<ApiTestClient>;
  /** Runs fn with the job queue stopped (what it sends waits), then restarts the queue and its workers. */
  withJobsPaused<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The password of the accounts `TestApp.user` makes. */
export const TEST_PASSWORD = 'abc123';

/**
 * One app for the enclosing describe block: started before its tests, closed after them. The returned object
 * is empty until then and is the started app from the first test on.
 */
export function useApp(kind: DbKind, overrides: Partial<ServerConfig> = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await startApp(kind, overrides));
  });
  afterAll(() => t.close?.());
  return t;
}

/**
 * Accounts for the enclosing describe block, one a username, each with `credits`, made and logged in by a beforeAll
 * where this is called: after useApp, they exist from the hooks declared after it on. As with useApp, the clients
 * are empty until then.
 */
export function useUsers(t: TestApp, usernames: readonly string[], credits = 0): ApiTestClient[] {
  const clients = usernames.map(() => new ApiTestClient(''));
  beforeAll(async () => {
    for (const [i, username] of usernames.entries()) Object.assign(clients[i]!, await t.user(username, credits));
  });
  return clients;
}

/**
 * `on`: an existing data directory (and, on PostgreSQL, database) to open instead of fresh ones; they stay when the
 * app closes, so a server started as a process can take them over (see `preparedData`).
 */
export async function startApp(kind: DbKind, overrides: Partial<ServerConfig> = {}, on?: { dataDir: string; databaseUrl?: string }): Promise<TestApp> {
  const dataDir = on?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `aisa-test-${kind}-`));
  // A fresh embedded database lives in memory (`pgliteImage: undefined` asks for one on disk, for a second app to
  // open after this one stops); one opened on a given data directory is that directory's.
  const image = kind === 'pglite' && !on && !overrides.dataDir && !('pgliteImage' in overrides) ? pgliteImage() : undefined;
  if (kind === 'pglite' && !on && !image) seedPgliteData(dataDir);
  cheapenPasswordHashesForTests();
  const database = kind === 'postgres' && !on ? await createDatabase(inject('postgresUrl'), inject('postgresTemplate')) : undefined;
  const app = await build({
    host: '127.0.0.1', port: 0, dataDir, databaseUrl: on?.databaseUrl ?? database?.url, pgliteImage: image, role: 'all', logLevel: 'silent',
    webRoot: undefined, runWorker: true, jobPollSeconds: 0.5, jobExpireSeconds: 600,
    // Failure paths retry at once here: what is tested is that they retry, not how long they wait.
    jobRetryDelaySeconds: 0, workerHeartbeatSeconds: 10, renderShortSide: TEST_SHORT_SIDE,
    // A spec worker's files analyse faces minutes apart, and restarting the two landmark workers after each 30 s idle
    // cost about 3.4 CPU-s a time (35 restarts in one run on the embedded database alone). Idle, they hold no process open.
    faceWorkersIdleSeconds: 3600, ...overrides,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const key = operatorKey(dataDir);

  const operator: TestApp['operator'] = async (call, body) => {
    const res = await fetch(`${url}${call.path}`, {
      method: call.method,
      headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key },
      body: JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: unknown }) };
  };

  const t: TestApp = {
    kind, app, url, dataDir, operator,
    client: (token) => new ApiTestClient(url, token),
    async createUser(username, password, credits = 0) {
      const reply = await operator(API.admin.userCreate, { username, password, credits });
      if (reply.code !== 0) throw new Error(`createUser: ${reply.msg}`);
      return (reply.data as { id: number }).id;
    },
    async login(username, password) {
      const reply = await t.client().call(API.account.login, { username, password });
      if (reply.code !== 0) throw new Error(`login: ${reply.msg}`);
      return new ApiTestClient(url, reply.data.token);
    },
    async user(username, credits = 0) {
      await t.createUser(username, TEST_PASSWORD, credits);
      return t.login(username, TEST_PASSWORD);
    },
    async withJobsPaused(fn) {
      await app.ctx.queue.stop();
      try {
        return await fn();
      } finally {
        await app.ctx.queue.start();
        await app.ctx.queue.work(jobHandlers(FEATURES, app.ctx));
      }
    },
    async close() {
      // A test that read a stored file's status but not its body leaves that response stuck mid-stream, and the
      // close would wait for it (and the database with it) until the client drops it: the tests are over, drop it now.
      app.server.closeAllConnections();
      // Nor does a request that comes in while it closes (a poll still running): nothing is served once they are over.
      app.server.on('connection', (socket: Socket) => socket.destroy());
      await app.close();
      if (on) return;
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * A data directory (PGlite's inside it, or `databaseUrl`'s PostgreSQL) arranged in process before servers started
 * as processes take it over: `arrange` runs on an app over it, which is closed before this answers. The recovery
 * specs get their ready avatars this way (the fixture needs the app's context), instead of cloning through a process.
 */
export async function preparedData<T>(kind: DbKind, databaseUrl: string | undefined, arrange: (t: TestApp) => Promise<T>): Promise<{ dataDir: string; arranged: T }> {
  const dataDir = tempDir(`aisa-test-${kind}-`);
  if (kind === 'pglite') seedPgliteData(dataDir);
  const t = await startApp(kind, {}, { dataDir, databaseUrl });
  try {
    return { dataDir, arranged: await arrange(t) };
  } finally {
    await t.close();
  }
}
