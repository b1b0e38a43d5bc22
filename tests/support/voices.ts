/** Voice calls the server specs share: clone from a file, wait for training, audition to the end, fetch the result. */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { API } from '../../src/contract';
import type { ApiTestClient, TestApp } from './app';
import { uploadFile } from './upload';
import { until } from './wait';

export const voicesOf = (c: ApiTestClient, source = 1) =>
  c.call(API.voices.list, { source, page: 1, limit: 9999 }).then((r) => r.data as { list: any[]; generate: number; total: number });

export const creditsOf = (c: ApiTestClient) => c.call(API.account.credits, {}).then((r) => r.data.credits as number);

/**
 * The latest `count` entries of the credit log, newest first, as [action, signed amount]: how a spec sees a charge
 * and its refund when the queue may have ended the task before any balance read.
 */
export const latestCredits = (c: ApiTestClient, count: number) =>
  c.call(API.credits.log, { page: 1, limit: count }).then((r) => (r.data.list as { action_name: string; credits: number }[]).map((l) => [l.action_name, l.credits]));

/** A failed clone's charge at submit and its return, from the credit log (training may fail and refund before a balance read sees the charge). */
export async function expectCloneRefunded(c: ApiTestClient, amount: number): Promise<void> {
  const [refund, charge] = await latestCredits(c, 2);
  expect(refund).toEqual(['声音克隆失败退回', amount]);
  expect(charge).toEqual([expect.stringMatching(/^声音克隆·/), -amount]);
}

/** The voice once its training has ended (ready or failed). */
export const trained = (c: ApiTestClient, id: number) =>
  until(() => voicesOf(c), (v) => v.list.find((x) => x.id === id)?.generate_status !== 1, 60_000).then((v) => v.list.find((x) => x.id === id));

export async function cloneVoice(c: ApiTestClient, file: string, name = '我的声音', api = 'local') {
  const upload = await uploadFile(c, 'voice', file);
  expect(upload.code).toBe(0);
  return c.call(API.voices.create, { name, file_id: upload.data.file_id, api });
}

/** Starts an audition and polls it to its end (done or failed). */
export async function auditionVoice(c: ApiTestClient, voiceId: number, text: string, extra: Record<string, unknown> = {}, ms = 60_000) {
  const start = await c.call(API.voices.audition, { voice_id: voiceId, text, ...extra });
  expect(start.code).toBe(0);
  const done = await until(() => c.call(API.voices.auditionPoll, { job_id: start.data.job_id }), (r) => r.data?.status === 3 || r.data?.status === 4, ms);
  return { ...(done.data as { status: number; url: string; file_id: number }), job_id: start.data.job_id as string };
}

/** Downloads a served file (a signed URL path of the test app) into `dir`. */
export async function downloadTo(t: TestApp, url: string, dir: string, ext = 'mp3'): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${ext}`);
  const res = await fetch(`${t.url}${url}`);
  expect(res.status).toBe(200);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/**
 * 公共声音 on the local channel, published by the operator from `sample`; answers its id once `viewer` sees it among
 * the public voices, so the spec's works may use it at once.
 */
export async function publishPublicVoice(t: TestApp, viewer: ApiTestClient, sample: string): Promise<number> {
  const id: number = (await t.operator(API.admin.voicePublish, { name: '公共声音', audio: sample, api: 'local' })).data.id;
  await until(() => viewer.call(API.voices.list, { source: 2, page: 1, limit: 10 }), (r) => r.data.list.some((v: { id: number }) => v.id === id));
  return id;
}
