/**
 * A work on a remote lip-sync engine (HeyGem / Duix.Avatar), as server/engines/lipsync/remote.ts
 * describes: the first run stores the speech and the avatar's normalized video as objects the engine can GET and
 * puts the work in its engine's line (a `remote_lipsync_tasks` row); every run does one thing and re-queues the job
 * with the next step — wait for a slot, submit, poll — until the result is fetched or the work fails.
 *
 * Slots are decided under a lock of the engine's channel rows, first come first served (`engineSlot`), so no more
 * submissions than the engine's limit are ever in flight, from any number of workers. The job's payload carries the
 * row's `step`; a run whose step is not the row's (a retry of a run that had already queued its successor before
 * the process died) does nothing, so there is one chain per work.
 */
import path from 'node:path';
import { MSG } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { remoteRenderTimings } from '../../infra/config';
import { probe } from '../../infra/media-probe';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { engineConcurrency, engineSlot, type RemoteLipSyncEngine } from '../../engines/lipsync';
import { WorksRepository, type RemoteScene, type RemoteTaskChange, type RemoteTaskRow, type RenderRow } from './works.repository';
import { joinVideos } from '../../engines/media';
import { saveSceneCaptions, sceneAvatar, sceneSpeeches } from './multi-scene';
import { WorkCannotRender, finishWork, materialAvatar, speak } from './works.service';
import { withBackgroundMusic } from './background-music';
import { captionsOfWork, withSubtitles } from './subtitles';
import { fetchObject } from '../../infra/storage';

/** Where the engine's host reaches this server: PUBLIC_URL, else the loopback address this process listens on. */
function publicOrigin(ctx: FeatureContext): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl;
  const address = ctx.app.server.address();
  return `http://127.0.0.1:${address && typeof address === 'object' ? address.port : ctx.config.port}`;
}

/**
 * The first run of a multi-scene work: each scene's speech (an uploaded audio as it is, a synthesized one stored as
 * scratch) and its avatar's normalized video, the work's timed text, then the work joins its engine's line with its
 * first scene at the engine; the others follow it there one by one (nextScene).
 */
async function joinLineWithScenes(ctx: FeatureContext, workId: number, work: RenderRow, engine: string): Promise<void> {
  const scratch: string[] = [];
  try {
    await withWorkDir(ctx.config.dataDir, async (dir) => {
      const { audios, timed, keys } = await sceneSpeeches(ctx, work, dir);
      const seconds: number[] = [];
      const scenes: RemoteScene[] = [];
      let coverKey = '';
      for (const [i, audio] of audios.entries()) {
        const { duration } = await probe(audio.file, audio.ext);
        seconds.push(duration);
        let audioKey = keys[i];
        if (!audioKey) {
          audioKey = (await storeUserFile(ctx, work.user_id, audio.file, audio.ext, 'voice', duration)).key;
          scratch.push(audioKey);
        }
        const avatar = await sceneAvatar(ctx, work, i);
        coverKey ||= avatar.cover_key;
        scenes.push({ audio_key: audioKey, video_key: avatar.video_key });
      }
      await saveSceneCaptions(ctx, workId, timed, seconds);
      const joined = await new WorksRepository(ctx.db).addRemoteTask({ work_id: workId, engine, ...scenes[0]!, cover_key: coverKey, scratch_keys: scratch, scenes });
      if (!joined) await deleteObjects(ctx, scratch.splice(0));
    });
  } catch (err) {
    await deleteObjects(ctx, scratch);
    throw err;
  }
}

/**
 * The first run: the speech (the user's audio, or the script spoken now with the chosen voice) and the avatar's
 * normalized video (a material-library video is prepared now) as objects, then the work joins its engine's line.
 * Objects made here only for the engine are the task's scratch, deleted when the work ends.
 */
async function joinLine(ctx: FeatureContext, workId: number, work: RenderRow, engine: string): Promise<void> {
  const scratch: string[] = [];
  try {
    await withWorkDir(ctx.config.dataDir, async (dir) => {
      let audioKey = work.audio_key;
      if (!audioKey) {
        if (!work.params.speech) throw new WorkCannotRender('数字人或音频已被删除');
        const speech = path.join(dir, 'speech.mp3');
        const spoken = await speak(ctx, work.user_id, work.params.speech, work.text, speech);
        await captionsOfWork(ctx, workId, work, { file: speech, ext: 'mp3' }, dir, spoken);
        audioKey = (await storeUserFile(ctx, work.user_id, speech, 'mp3', 'voice', (await probe(speech, 'mp3')).duration)).key;
        scratch.push(audioKey);
      } else {
        // Kept now: the result is collected by a later run, which burns the captions in.
        const ext = audioKey.slice(audioKey.lastIndexOf('.') + 1);
        await captionsOfWork(ctx, workId, work, { file: await fetchObject(ctx.storage, audioKey, path.join(dir, `audio.${ext}`)), ext }, dir);
      }
      let videoKey = work.avatar_video_key;
      let coverKey = work.cover_key ?? '';
      if (!videoKey) {
        const material = await materialAvatar(ctx, work, dir);
        coverKey = material.coverKey;
        scratch.push(coverKey);
        videoKey = (await storeUserFile(ctx, work.user_id, material.prepared.normalized, 'mp4', 'video', material.prepared.duration)).key;
        scratch.push(videoKey);
      }
      const joined = await new WorksRepository(ctx.db).addRemoteTask({ work_id: workId, engine, audio_key: audioKey, video_key: videoKey, cover_key: coverKey, scratch_keys: scratch });
      if (!joined) await deleteObjects(ctx, scratch.splice(0));
    });
  } catch (err) {
    await deleteObjects(ctx, scratch);
    throw err;
  }
}

/**
 * What a render job other than the works' (one-click creation's) makes of the chain: the job that carries it, and
 * what becomes of the engine's result once fetched (the works' own: the work finished as the engine made it).
 */
export interface RemoteRenderUse {
  job: 'works-render' | 'oneclick-render';
  /** How long each run may take, when the queue's default could be too short (the works' runs are short). */
  runsUpToSeconds?: number;
  /** `result` is the engine's mp4 in `dir`, probed; `task` still holds the speech the engine was given (audio_key). */
  finish(result: { file: string; duration: number }, task: RemoteTaskRow, dir: string): Promise<void>;
}

/** Ends this run: the task's changes, and the job again after `seconds` with the next step (nothing if another run moved on). */
async function requeue(ctx: FeatureContext, use: RemoteRenderUse, task: RemoteTaskRow, seconds: number, change: RemoteTaskChange = {}): Promise<void> {
  await ctx.db.tx(async (q) => {
    if (await new WorksRepository(q).changeRemoteTask(task.work_id, task.step, change, { advance: true })) {
      await ctx.queue.send(use.job, { workId: task.work_id, step: task.step + 1 }, { startAfter: seconds, runsUpToSeconds: use.runsUpToSeconds }, q);
    }
  });
}

/**
 * Waiting in line: takes a slot when the engine has one free and nobody waits longer (the code is new for every
 * submission), or answers that the work keeps waiting, or that another run has moved the task on.
 */
async function takeSlot(ctx: FeatureContext, task: RemoteTaskRow, limit: number): Promise<{ code: string } | 'wait' | 'moved'> {
  return ctx.db.tx(async (q) => {
    const works = new WorksRepository(q);
    const line = await works.lockEngineLine(task.engine, task.work_id, task.step);
    if (!line) return 'moved';
    if (!engineSlot(limit, line.running, line.ahead).start) return 'wait';
    return { code: await works.takeSlot(task.work_id) };
  });
}

/** The works' own use: the engine's result is the work (music under it, captions over it), stored, finished and settled. */
const worksUse = (ctx: FeatureContext, workId: number, work: RenderRow): RemoteRenderUse => ({
  job: 'works-render',
  async finish(result, task, dir) {
    // The engine renders the speech alone: the background music goes under its result here, as under a local render.
    const scored = await withBackgroundMusic(ctx, work.params.bgm, { ...result, ext: 'mp4', coverKey: task.cover_key, timed: work.captions ?? [] }, dir);
    await finishWork(ctx, workId, work, await withSubtitles(work, scored, dir));
  },
});

/** The located result fetched to `output` and checked: a playable video; answers its length. */
async function fetchChecked(engine: RemoteLipSyncEngine, result: string, output: string): Promise<number> {
  await engine.fetchResult(result, output);
  const info = await probe(output, 'mp4').catch(() => undefined);
  if (!info?.video || !(info.duration > 0)) throw new WorkCannotRender(MSG.lipSyncResultInvalid);
  return info.duration;
}

/**
 * The result is located: fetched into the work dir and checked (a multi-scene work's: joined after the scenes' kept
 * results), then finished as its use says.
 */
async function collect(ctx: FeatureContext, engine: RemoteLipSyncEngine, use: RemoteRenderUse, task: RemoteTaskRow): Promise<void> {
  await withWorkDir(ctx.config.dataDir, async (dir) => {
    let output = path.join(dir, 'remote.mp4');
    let duration = await fetchChecked(engine, task.result, output);
    if (task.scenes.length) {
      const parts = await Promise.all(task.results.map((key, i) => fetchObject(ctx.storage, key, path.join(dir, `scene-${i}.mp4`))));
      const joined = path.join(dir, 'work.mp4');
      ({ duration } = await joinVideos([...parts, output], joined, dir));
      output = joined;
    }
    await use.finish({ file: output, duration }, task, dir);
  });
}

/**
 * A multi-scene work's scene is done and more follow: its result is kept as a stored object (the engine forgets it),
 * and the next scene waits at the head of the line (the task keeps its place). Answers the task as it now is, or
 * undefined when another run moved it on.
 */
async function nextScene(ctx: FeatureContext, engine: RemoteLipSyncEngine, work: RenderRow, task: RemoteTaskRow): Promise<RemoteTaskRow | undefined> {
  const kept = await withWorkDir(ctx.config.dataDir, async (dir) => {
    const output = path.join(dir, 'scene.mp4');
    const duration = await fetchChecked(engine, task.result, output);
    return (await storeUserFile(ctx, work.user_id, output, 'mp4', 'video', duration)).key;
  });
  const scene = task.scene + 1;
  const change: RemoteTaskChange = {
    state: 'queued', code: '', result: '', progress: 0, checks: 0, scene, ...task.scenes[scene]!,
    results: [...task.results, kept], scratch_keys: [...task.scratch_keys, kept],
  };
  if (!(await new WorksRepository(ctx.db).changeRemoteTask(task.work_id, task.step, change))) {
    await deleteObjects(ctx, [kept]);
    return undefined;
  }
  return { ...task, ...change };
}

/** One run of a work on its channel's remote engine (the render job's `step`); errors go to the render job's failure rules. */
export async function runRemoteRender(ctx: FeatureContext, workId: number, work: RenderRow, engine: RemoteLipSyncEngine, step: number, use = worksUse(ctx, workId, work)): Promise<void> {
  const works = new WorksRepository(ctx.db);
  if (step === 0 && !(await works.remoteTask(workId))) await (Number(work.is_multi) ? joinLineWithScenes : joinLine)(ctx, workId, work, engine.name);
  const found = await works.remoteTask(workId);
  if (!found || found.step !== step) return;
  let task: RemoteTaskRow = found;
  const timings = remoteRenderTimings(ctx.config);
  // The operator moved the channel to another engine while the work was on this one.
  if (task.engine !== engine.name) throw new WorkCannotRender('该通道的视频引擎不可用，积分已退回');

  for (;;) {
    if (task.state === 'done' && task.scene + 1 < task.scenes.length) {
      const moved = await nextScene(ctx, engine, work, task);
      if (!moved) return;
      task = moved;
      continue;
    }
    if (task.state === 'done') return collect(ctx, engine, use, task);

    if (task.state === 'queued') {
      const slot = await takeSlot(ctx, task, engineConcurrency(engine.name, work.engine_config));
      if (slot === 'moved') return;
      if (slot === 'wait') return requeue(ctx, use, task, timings.queueSeconds);
      await works.markRendering(workId);
      const origin = publicOrigin(ctx);
      const outcome = await engine.submit({ code: slot.code, audioUrl: origin + ctx.urls.url(task.audio_key), videoUrl: origin + ctx.urls.url(task.video_key) });
      // Busy: a job that is not ours holds the engine, which dropped this one; the work keeps its place in line.
      if (outcome.state === 'busy') return requeue(ctx, use, task, timings.busySeconds, { state: 'queued', code: '' });
      return requeue(ctx, use, task, timings.pollSeconds);
    }

    const state = await engine.query(task.code);
    switch (state.state) {
      case 'running':
        if (task.checks * timings.pollSeconds >= timings.timeoutSeconds) throw new WorkCannotRender(MSG.lipSyncTimedOut);
        return requeue(ctx, use, task, timings.pollSeconds, { progress: state.progress, checks: task.checks + 1 });
      case 'failed':
        ctx.app.log.warn({ workId, code: task.code, detail: state.detail }, 'lip-sync engine: the task failed');
        throw new WorkCannotRender(`${state.reason}，积分已退回`);
      case 'done': {
        // The engine forgets the task once it has said so: the result's location is kept before anything else.
        const change = { state: 'done', result: state.result, progress: 100 } as const;
        if (!(await works.changeRemoteTask(workId, step, change))) return;
        task = { ...task, ...change };
        continue;
      }
      case 'unknown': {
        // Lost (the engine restarted, or the submission never reached it): back to the head of the line, submitted again.
        if (task.lost >= timings.maxLost) throw new WorkCannotRender(MSG.lipSyncLost);
        const change = { state: 'queued', code: '', progress: 0, lost: task.lost + 1 } as const;
        if (!(await works.changeRemoteTask(workId, step, change))) return;
        task = { ...task, ...change };
        continue;
      }
    }
  }
}
