/**
 * One name per feature: a contract group (`API.<f>`, call ids `<f>.…`), its server feature folder
 * (`server/features/<f>/`), its client plugin (`src/plugins/<f>/`, where it has screens) and its jobs (`<f>-…`) carry
 * the same name. This walks the contract, both trees and the running server's routing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { API, ALL_CALLS, MSG, callGroup, type CallDef } from '../../src/contract';
import { CallRouter, ForeignCallError, SERVER_OWNER } from '../infra/http';
import { JOB_NAMES } from '../infra/queue';
import { DB_KINDS, useApp } from '../../tests/support/app';
import { FEATURES } from '.';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GROUPS = Object.keys(API) as (keyof typeof API)[];
const dirsOf = (dir: string) => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** Groups with no screen of their own, hence no client plugin of their name; why, for each. */
const WITHOUT_SCREENS: Partial<Record<keyof typeof API, string>> = {
  site: 'site info and agreements, read by the shell, the login screen and /protocol (the protocol plugin)',
  admin: 'operator calls behind `npm run admin`, from loopback only',
  notice: 'the header\'s notice popover, drawn by the credits plugin beside the other popovers',
  upload: 'the uploads behind every screen\'s pickers',
  writing: 'polish, themes and AI writing inside core\'s script editor (src/core/script-editor), shown by the creation and dubbing screens',
  bot: 'bots are talked to on the employee plugin\'s screens (/employee, named by the spec\'s routes and toggled per host build apart from the helper)',
};

/** Calls the server itself answers, outside any feature: liveness and readiness must not wait on one. */
const SERVER_CALLS = [API.site.healthLive.id, API.site.healthReady.id];

describe('one name per feature, in the contract and the trees', () => {
  it('names every call after its group', () => {
    for (const group of GROUPS) {
      for (const call of Object.values(API[group]) as CallDef[]) expect(callGroup(call), call.id).toBe(group);
    }
  });

  it('has a server feature folder and module of each group\'s name', () => {
    const folders = dirsOf('server/features');
    const modules = FEATURES.map((f) => f.name);
    for (const group of GROUPS) {
      expect(folders, `server/features/${group}/`).toContain(group);
      expect(modules, `${group} in server/features/index.ts`).toContain(group);
    }
  });

  it('names every feature module after its folder, and has no folder without a module', () => {
    for (const feature of FEATURES) expect(fs.existsSync(path.join(ROOT, 'server/features', feature.name, 'index.ts')), feature.name).toBe(true);
    expect(dirsOf('server/features').sort()).toEqual(FEATURES.map((f) => f.name).sort());
  });

  it('has a client plugin of each group\'s name, in the manifest, unless the group has no screen of its own', () => {
    const plugins = dirsOf('src/plugins');
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'plugins.manifest.json'), 'utf8')) as { plugins: { id: string; entry: string }[] };
    for (const group of GROUPS.filter((g) => !WITHOUT_SCREENS[g])) {
      expect(plugins, `src/plugins/${group}/`).toContain(group);
      expect(manifest.plugins.find((p) => p.id === group)?.entry, `${group} in plugins.manifest.json`).toBe(`src/plugins/${group}/index.ts`);
    }
    // The list stays honest: only groups, and none that has since grown a plugin of its name.
    for (const group of Object.keys(WITHOUT_SCREENS)) {
      expect(GROUPS, group).toContain(group);
      expect(plugins, `${group} has a plugin now: drop it from WITHOUT_SCREENS`).not.toContain(group);
    }
  });

  it('names every job <feature>-… and gives it to that feature', () => {
    const handled: string[] = [];
    for (const feature of FEATURES) {
      for (const job of Object.keys(feature.jobs ?? {})) {
        expect(job.startsWith(`${feature.name}-`), `${feature.name} handles ${job}`).toBe(true);
        handled.push(job);
      }
    }
    expect(handled.sort()).toEqual([...JOB_NAMES].sort());
  });
});

describe('a feature registers only calls of its group', () => {
  const router = () => new CallRouter(Fastify(), { authenticate: async () => null, operatorKey: 'k' });
  /** A handler never run here: what is tested is whether the router takes it. */
  const answer = (): Promise<never> => Promise.reject(new Error('not called'));

  it('refuses another group\'s call at start-up, handled here or elsewhere', () => {
    const r = router();
    expect(() => r.forFeature('voices').handle(API.admin.channelSet, answer)).toThrow(ForeignCallError);
    expect(() => r.forFeature('voices').handle(API.admin.channelSet, answer)).toThrow('feature voices registers admin.channelSet');
    expect(() => r.forFeature('works').handle(API.translation.list, answer)).toThrow(ForeignCallError);
    expect(() => r.forFeature('upload').handledElsewhere(API.chat.stream)).toThrow(ForeignCallError);
    // A prefix is not a group: the avatars feature may not answer a call of a group named like it.
    expect(() => r.forFeature('avatar').handle(API.avatars.list, answer)).toThrow(ForeignCallError);
    expect(r.answeredBy().size).toBe(0);
  });

  it('takes the feature\'s own calls and records who answers them; a guard may wrap any group\'s call', () => {
    const r = router();
    r.forFeature('admin').handle(API.admin.channelSet, answer);
    r.forFeature('chat').handledElsewhere(API.chat.stream);
    r.forFeature('account').guard(API.credits.cdkey, (_ctx, run) => run());
    expect([...r.answeredBy()]).toEqual([[API.admin.channelSet.id, 'admin'], [API.chat.stream.id, 'chat']]);
    expect(() => r.forFeature('admin').handle(API.admin.channelSet, answer)).toThrow('has two handlers');
  });
});

describe.each(DB_KINDS)('the running server (%s)', (kind) => {
  const t = useApp(kind);

  it('answers every call by the feature of its group', async () => {
    const router = t.app.ctx.router;
    expect(router).toBeInstanceOf(CallRouter);
    const owners = (router as CallRouter).answeredBy();
    for (const call of ALL_CALLS) {
      const owner = owners.get(call.id);
      if (SERVER_CALLS.includes(call.id)) expect(owner, call.id).toBe(SERVER_OWNER);
      else expect(owner, call.id).toBe(callGroup(call));
    }
    const user = await t.user('13700000001');
    // The calls that moved answer at their unchanged paths, from their new features.
    expect((await user.call(API.translation.languages, {})).code).toBe(0);
    expect((await user.call(API.extraction.videoList, { page: 1, limit: 10 })).code).toBe(0);
    expect((await user.call(API.imagegen.engine, {})).code).toBe(0);
    expect((await user.call(API.videogen.engine, {})).code).toBe(0);
    expect(await user.call(API.extraction.saveToMaterial, { type: 'video', rid: 999_999 })).toMatchObject({ code: 1, msg: MSG.extractionRecordMissing });
    expect((await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', desc: '本地声音' })).code).toBe(0);
  });
});
