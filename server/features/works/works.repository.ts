/** Every SQL statement of works, video channels and the inputs a work reads (the user's audio and material files). */
import { WORK_IN_PROGRESS, WORK_TABS, WorkStatus, type SubtitleStyle, type TimedText } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import type { SpeechParams } from '../../engines/speech';

const IN_PROGRESS = `(${WORK_IN_PROGRESS.join(', ')})`;
/** Of task `t`: the tasks of its engine waiting longer in our queue (first come, first served; ties by work id). */
const WAITING_AHEAD = `SELECT count(*)::int FROM remote_lipsync_tasks o
  WHERE o.engine = t.engine AND o.state = 'queued' AND (o.queued_at, o.work_id) < (t.queued_at, t.work_id)`;
const FINISHED = `(${WorkStatus.Success}, ${WorkStatus.Failed})`;
/**
 * Of work `w`, waiting for its render on this machine: the works the fair queue takes before it (a lower turn, or the
 * same turn submitted earlier), as pg-boss takes works-render jobs by priority (-turn), then age.
 */
const FAIR_AHEAD = `SELECT count(*)::int FROM works o
  WHERE o.status = ${WorkStatus.Queued} AND o.turn IS NOT NULL AND (o.turn, o.id) < (w.turn, w.id)
    AND NOT EXISTS (SELECT 1 FROM remote_lipsync_tasks r WHERE r.work_id = o.id)`;

export interface ChannelRow {
  api: string;
  name: string;
  description: string;
  version_name: string;
  credits: number;
  enabled: boolean;
  /** Which video engine renders the channel's works ('local', or 'none' until an operator configures one). */
  engine: string;
  /** The engine's settings (a remote engine's address, its concurrency). */
  config: Record<string, unknown> | null;
}

export interface WorkRow {
  id: number;
  is_multi: number;
  user_id: number;
  name: string;
  api: string;
  status: number;
  video_key: string;
  cover_key: string;
  /** The work's SRT ('' when its speech has no timed text). */
  srt_key: string;
  duration: number;
  reason: string;
  reserved: number;
  charged: number;
  created_at: Date;
  channel_name: string | null;
  channel_config: Record<string, unknown> | null;
  /** While on a remote lip-sync engine (see RemoteTaskRow). */
  remote_engine: string | null;
  remote_state: RemoteTaskState | null;
  remote_progress: number | null;
  /** Queued: the engine's submissions in flight, and those waiting longer than this one. */
  remote_running: number | null;
  remote_waiting_ahead: number | null;
  /** A render on this machine: its progress (0–100) and when it began. */
  local_progress: number | null;
  render_started_at: Date | null;
  /** Queued for this machine's fair queue: the works it takes first. */
  fair_ahead: number | null;
}

/** A scene of a multi-scene work, as stored for the render job. */
export interface StoredScene {
  audio_file_id?: number;
  text?: string;
  speech?: { voice_id: number } & SpeechParams;
  avatar_id?: number;
  /** The timed text of the scene's preview audio (audio_file_id), from the audition that made it. */
  captions?: TimedText[];
}

/** What a work speaks and shows, as stored with it (`works.params`). */
export interface WorkParams {
  language?: string;
  emotion?: string;
  /** A material-library video used as the avatar: the render prepares it as a clone would. */
  material_video_file_id?: number;
  /** A pet or person picture (photo feature) shown instead of an avatar. */
  photo_id?: number;
  /** Set when the render job must synthesize the text first. */
  speech?: { voice_id: number } & SpeechParams;
  /**
   * The reservation was an estimate (speech still to be synthesized): the actual duration's price is charged,
   * even above it. Without it the reservation was measured from the audio, which the render is cut to.
   */
  estimated?: boolean;
  drive_mode?: 'serial' | 'random';
  output_mode?: 'video' | 'audio';
  scenes?: StoredScene[];
  /** Captions burned into the picture, and how they look (absent: none; the SRT is made either way). */
  subtitles?: SubtitleStyle;
  /** Background music: the chosen track's stored object and its level (absent: none). */
  bgm?: { key: string; volume: number };
  /**
   * A one-click work's storyboard (the oneclick feature renders it): the aspect, the channel's credits per avatar second
   * at submit, and each scene, pictures as stored objects.
   */
  /** title: one-click's title card over the first seconds (LIMITS.oneclick.titleSeconds), '' for none. */
  /** cover: the first frame of scene `scene` (1-based), or the frame at `at` seconds when given. */
  oneclick?: {
    aspect: string; channel_credits: number; title?: string; cover?: { scene: number; at?: number };
    scenes: { text: string; kind: 'avatar' | 'broll'; image_key?: string; motion?: 'in' | 'out' | 'pan' }[];
  };
}

/** What the render job reads of a work. */
export interface RenderRow {
  user_id: number;
  status: number;
  is_multi: number;
  /** The channel's video engine (multi-scene works always render on the local one), and its settings. */
  engine: string | null;
  engine_config: Record<string, unknown> | null;
  loop_key: string | null;
  /** The avatar's normalized video (what a remote engine is given). */
  avatar_video_key: string | null;
  cover_key: string | null;
  /** The avatar (null for a material-library video) and what the offline lip-sync engine needs of it. */
  avatar_id: number | null;
  avatar_user_id: number | null;
  faces_key: string | null;
  face_note: string | null;
  audio_key: string | null;
  text: string;
  params: WorkParams;
  /** The timed text of the work's speech once known (from its audition at submit, or kept by an earlier run). */
  captions: TimedText[] | null;
  price: number;
  reserved: number;
  spend_entry_id: number | null;
  /** Its fair-queue turn (null: queued before the fair queue). */
  turn: number | null;
}

export type RemoteTaskState = 'queued' | 'submitted' | 'done';

/** A work on a remote lip-sync engine (migration 008): waiting for a slot, running there, or its result located. */
export interface RemoteTaskRow {
  work_id: number;
  engine: string;
  code: string;
  state: RemoteTaskState;
  result: string;
  progress: number;
  submissions: number;
  lost: number;
  checks: number;
  step: number;
  audio_key: string;
  video_key: string;
  cover_key: string;
  scratch_keys: string[];
  /** A multi-scene work's scenes (migration 035; empty for a single work), the one at the engine now, and the results so far. */
  scenes: RemoteScene[];
  scene: number;
  results: string[];
}

/** A scene's inputs for a remote engine: its speech and its avatar's normalized video, as stored objects. */
export interface RemoteScene {
  audio_key: string;
  video_key: string;
}

/** What the render job may change of its task row as it moves on (see WorksRepository.advanceRemoteTask). */
export type RemoteTaskChange = Partial<Pick<RemoteTaskRow, 'state' | 'code' | 'result' | 'progress' | 'lost' | 'checks' | 'scene' | 'audio_key' | 'video_key' | 'results' | 'scratch_keys'>>;

export interface NewWork {
  userId: number;
  name: string;
  api: string;
  isMulti: boolean;
  onlyAudio: boolean;
  avatarId: number | null;
  audioFileId: number | null;
  text: string;
  params: WorkParams;
  price: number;
  reserved: number;
  /** 0 an avatar video, 1 photo-speak, 2 pet (works made from a picture). */
  photoType?: number;
  /** The timed text of its audition, when the work speaks one. */
  captions?: TimedText[] | null;
  /** Made by one-click creation (its render job is that feature's). */
  oneclick?: boolean;
}

/** The list's filters, as the contract parsed them. */
export interface WorkFilter {
  status?: number;
  name?: string;
  is_multi?: 0 | 1;
  only_audio?: 0 | 1;
  photo_type?: 0 | 1 | 2;
  oneclick?: 0 | 1;
  type?: number;
  id?: number;
}

/** WHERE clause and arguments of the works list ($1 is the user). */
function listFilter(userId: number, f: WorkFilter): { where: string; args: unknown[] } {
  const where = ['w.user_id = $1'];
  const args: unknown[] = [userId];
  const add = (column: string, value: unknown, op = '=') => {
    args.push(value);
    where.push(`${column} ${op} $${args.length}`);
  };
  if (f.id !== undefined) add('w.id', f.id);
  if (f.status !== undefined) add('w.status', f.status);
  if (f.name) add('w.name', `%${f.name}%`, 'ILIKE');
  if (f.is_multi !== undefined) add('w.is_multi', f.is_multi);
  if (f.only_audio !== undefined) add('w.only_audio', f.only_audio);
  if (f.photo_type !== undefined) add('w.photo_type', f.photo_type);
  if (f.oneclick !== undefined) add('w.oneclick', f.oneclick);
  if (f.type !== undefined) {
    // The works page's tab: type2 inside the level is_multi names (see WORK_TABS).
    const level = f.is_multi ?? 0;
    const tab = WORK_TABS[level][f.type];
    if (!tab) where.push('false');
    else {
      if (f.is_multi === undefined) add('w.is_multi', level);
      if (tab.photo_type !== undefined) add('w.photo_type', tab.photo_type);
      if (tab.only_audio !== undefined) add('w.only_audio', tab.only_audio);
      if (tab.oneclick !== undefined) add('w.oneclick', tab.oneclick);
    }
  }
  return { where: where.join(' AND '), args };
}

export class WorksRepository {
  constructor(private readonly q: Queryable) {}

  async videoChannel(api: string): Promise<ChannelRow | undefined> {
    const { rows } = await this.q.query<ChannelRow>(`SELECT * FROM channels WHERE kind = 'video' AND api = $1`, [api]);
    return rows[0];
  }

  async enabledVideoChannels(): Promise<ChannelRow[]> {
    return (await this.q.query<ChannelRow>(`SELECT * FROM channels WHERE kind = 'video' AND enabled ORDER BY sort, api`)).rows;
  }

  /** A video of the user's material library. */
  async materialVideo(materialId: number, userId: number) {
    const { rows } = await this.q.query<{ id: number; duration: number }>(
      `SELECT f.id, f.duration FROM materials m JOIN files f ON f.id = m.file_id WHERE m.id = $1 AND m.user_id = $2 AND f.kind = 'video'`,
      [materialId, userId],
    );
    return rows[0];
  }

  /** The user's file behind a file id or a material id, whatever its kind. */
  async ownFile(userId: number, ref: { fileId?: number; materialId?: number }) {
    const { rows } = ref.materialId !== undefined
      ? await this.q.query<{ id: number; duration: number; kind: string }>(
        'SELECT f.id, f.duration, f.kind FROM materials m JOIN files f ON f.id = m.file_id WHERE m.id = $1 AND m.user_id = $2', [ref.materialId, userId])
      : await this.q.query<{ id: number; duration: number; kind: string }>('SELECT id, duration, kind FROM files WHERE id = $1 AND user_id = $2', [ref.fileId, userId]);
    return rows[0];
  }

  async ownFileKey(fileId: number, userId: number): Promise<string | undefined> {
    const { rows } = await this.q.query<{ key: string }>('SELECT object_key AS key FROM files WHERE id = $1 AND user_id = $2', [fileId, userId]);
    return rows[0]?.key;
  }

  /** A new work, queued. */
  async add(w: NewWork): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO works (user_id, name, api, status, is_multi, only_audio, avatar_id, audio_file_id, text, params, price, reserved, photo_type, captions, oneclick)
       VALUES ($1, $2, $3, ${WorkStatus.Queued}, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [w.userId, w.name, w.api, w.isMulti ? 1 : 0, w.onlyAudio ? 1 : 0, w.avatarId, w.audioFileId, w.text, JSON.stringify(w.params), w.price, w.reserved, w.photoType ?? 0, w.captions ? JSON.stringify(w.captions) : null, w.oneclick ? 1 : 0],
    );
    return rows[0]!.id;
  }

  async setSpendEntry(workId: number, entryId: number): Promise<void> {
    await this.q.query('UPDATE works SET spend_entry_id = $2 WHERE id = $1', [workId, entryId]);
  }

  /** How many works match, and how many of those are still in progress. */
  async counts(userId: number, f: WorkFilter): Promise<{ total: number; generate: number }> {
    const { where, args } = listFilter(userId, f);
    const { rows } = await this.q.query<{ total: number; generate: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE w.status IN ${IN_PROGRESS})::int AS generate FROM works w WHERE ${where}`,
      args,
    );
    return rows[0]!;
  }

  /** Newest first, with the channel's name; `limit` and `offset` are validated integers. */
  async list(userId: number, f: WorkFilter, limit: number, offset: number): Promise<WorkRow[]> {
    const { where, args } = listFilter(userId, f);
    const { rows } = await this.q.query<WorkRow>(
      `SELECT w.*, c.name AS channel_name, c.config AS channel_config, t.engine AS remote_engine, t.state AS remote_state,
              -- A multi-scene work's progress over all its scenes.
              (t.scene * 100 + t.progress) / GREATEST(1, jsonb_array_length(t.scenes)) AS remote_progress,
              CASE WHEN t.state = 'queued' THEN (SELECT count(*)::int FROM remote_lipsync_tasks o WHERE o.engine = t.engine AND o.state = 'submitted') END AS remote_running,
              CASE WHEN t.state = 'queued' THEN (${WAITING_AHEAD}) END AS remote_waiting_ahead,
              CASE WHEN w.status = ${WorkStatus.Queued} AND w.turn IS NOT NULL AND t.work_id IS NULL THEN (${FAIR_AHEAD}) END AS fair_ahead
         FROM works w LEFT JOIN channels c ON c.kind = 'video' AND c.api = w.api LEFT JOIN remote_lipsync_tasks t ON t.work_id = w.id
        WHERE ${where} ORDER BY w.id DESC LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return rows;
  }

  /** Only successful works can be renamed. */
  async rename(id: number, userId: number, name: string): Promise<boolean> {
    const { rowCount } = await this.q.query(`UPDATE works SET name = $3 WHERE id = $1 AND user_id = $2 AND status = ${WorkStatus.Success}`, [id, userId, name]);
    return rowCount > 0;
  }

  /** Deletes a finished work (never one still rendering); answers what it held. */
  async remove(id: number, userId: number) {
    const { rows } = await this.q.query<{ video_key: string; cover_key: string; srt_key: string; params: WorkParams }>(
      `DELETE FROM works WHERE id = $1 AND user_id = $2 AND status IN ${FINISHED} RETURNING video_key, cover_key, srt_key, params`,
      [id, userId],
    );
    return rows[0];
  }

  async renderInput(workId: number): Promise<RenderRow | undefined> {
    const { rows } = await this.q.query<RenderRow>(
      `SELECT w.user_id, w.status, w.is_multi, c.engine, c.config AS engine_config, a.loop_key, a.video_key AS avatar_video_key, a.cover_key,
              a.id AS avatar_id, a.user_id AS avatar_user_id, a.faces_key, a.face_note, f.object_key AS audio_key, w.text, w.params, w.captions, w.price,
              w.reserved, w.spend_entry_id, w.turn
         FROM works w LEFT JOIN avatars a ON a.id = w.avatar_id LEFT JOIN files f ON f.id = w.audio_file_id
         LEFT JOIN channels c ON c.kind = 'video' AND c.api = w.api
        WHERE w.id = $1`,
      [workId],
    );
    return rows[0] && { ...rows[0], status: Number(rows[0].status) };
  }

  /**
   * The fair queue: the work takes its user's next render turn, never one before the queue's front (the lowest turn
   * still queued, or the latest turn given when none is), so a user's long batch does not hold back a later user.
   */
  async takeTurn(workId: number, userId: number): Promise<number> {
    const { rows } = await this.q.query<{ last_turn: number }>(
      `INSERT INTO work_turns (user_id, last_turn)
       VALUES ($1, COALESCE((SELECT min(turn) FROM works WHERE status = ${WorkStatus.Queued} AND turn IS NOT NULL), (SELECT max(last_turn) FROM work_turns), 0))
       ON CONFLICT (user_id) DO UPDATE SET last_turn = GREATEST(work_turns.last_turn + 1, EXCLUDED.last_turn)
       RETURNING last_turn`,
      [userId],
    );
    const turn = Number(rows[0]!.last_turn);
    await this.q.query('UPDATE works SET turn = $2 WHERE id = $1', [workId, turn]);
    return turn;
  }

  /** How many of the user's works render on this machine now (the fair queue's per-user limit). */
  async renderingOf(userId: number): Promise<number> {
    const { rows } = await this.q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM works w WHERE w.user_id = $1 AND w.status = ${WorkStatus.Rendering}
          AND NOT EXISTS (SELECT 1 FROM remote_lipsync_tasks r WHERE r.work_id = w.id)`,
      [userId],
    );
    return Number(rows[0]!.n);
  }

  /** Cancels a work not yet started (still queued): true when it was; the caller returns its credits. */
  async cancelQueued(workId: number, userId: number, reason: string): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE works SET status = ${WorkStatus.Failed}, reason = $3, finished_at = now()
        WHERE id = $1 AND user_id = $2 AND status = ${WorkStatus.Queued} AND NOT EXISTS (SELECT 1 FROM remote_lipsync_tasks r WHERE r.work_id = $1)`,
      [workId, userId, reason],
    );
    return rowCount > 0;
  }

  async markRendering(workId: number): Promise<void> {
    await this.q.query(`UPDATE works SET status = ${WorkStatus.Rendering}, render_started_at = now(), local_progress = NULL WHERE id = $1 AND status IN ${IN_PROGRESS}`, [workId]);
  }

  /** A render on this machine moved on (percent 0–100). */
  async setLocalProgress(workId: number, percent: number): Promise<void> {
    await this.q.query(`UPDATE works SET local_progress = $2 WHERE id = $1 AND status = ${WorkStatus.Rendering}`, [workId, percent]);
  }

  /** False when the work had already finished (a repeated job). */
  async markFailed(workId: number, reason: string): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE works SET status = ${WorkStatus.Failed}, reason = $2, finished_at = now() WHERE id = $1 AND status IN ${IN_PROGRESS}`,
      [workId, reason],
    );
    return rowCount > 0;
  }

  /** Inside the finishing transaction: locks the work while it is still in progress; false once it has finished. */
  async lockInProgress(workId: number): Promise<boolean> {
    return (await this.q.query(`SELECT 1 FROM works WHERE id = $1 AND status IN ${IN_PROGRESS} FOR UPDATE`, [workId])).rows.length > 0;
  }

  /** False when the work had already finished (a repeated job). `reason` says how it was charged when that needs saying. */
  async markDone(workId: number, done: { videoKey: string; coverKey: string; srtKey: string; duration: number; charged: number; reason: string }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE works SET status = ${WorkStatus.Success}, video_key = $2, cover_key = $3, duration = $4, charged = $5, reason = $6, srt_key = $7, finished_at = now()
        WHERE id = $1 AND status IN ${IN_PROGRESS}`,
      [workId, done.videoKey, done.coverKey, done.duration, done.charged, done.reason, done.srtKey],
    );
    return rowCount > 0;
  }

  /** Keeps the timed text of a work's speech while it renders (a later run, or a retry, reads it back). */
  async saveCaptions(workId: number, captions: TimedText[]): Promise<void> {
    await this.q.query(`UPDATE works SET captions = $2 WHERE id = $1 AND status IN ${IN_PROGRESS}`, [workId, JSON.stringify(captions)]);
  }

  // ---- remote lip-sync tasks (the render job drives them, see remote-render.ts)

  async remoteTask(workId: number): Promise<RemoteTaskRow | undefined> {
    const { rows } = await this.q.query<RemoteTaskRow>('SELECT * FROM remote_lipsync_tasks WHERE work_id = $1', [workId]);
    return rows[0];
  }

  /** The work joins its engine's line (queued now); false when it already had a task (a repeated first run). */
  async addRemoteTask(t: Pick<RemoteTaskRow, 'work_id' | 'engine' | 'audio_key' | 'video_key' | 'cover_key' | 'scratch_keys'> & { scenes?: RemoteScene[] }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `INSERT INTO remote_lipsync_tasks (work_id, engine, audio_key, video_key, cover_key, scratch_keys, scenes) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (work_id) DO NOTHING`,
      [t.work_id, t.engine, t.audio_key, t.video_key, t.cover_key, t.scratch_keys, JSON.stringify(t.scenes ?? [])],
    );
    return rowCount > 0;
  }

  /**
   * Inside a transaction: serializes the slot decisions of one engine (every channel row it serves is locked) and
   * answers the task, locked, while it is still waiting at this step; with its engine's submissions in flight and
   * the tasks that wait longer than it.
   */
  async lockEngineLine(engine: string, workId: number, step: number): Promise<{ running: number; ahead: number } | undefined> {
    await this.q.query(`SELECT api FROM channels WHERE kind = 'video' AND engine = $1 FOR UPDATE`, [engine]);
    const { rows } = await this.q.query<{ running: number; ahead: number }>(
      `SELECT (SELECT count(*)::int FROM remote_lipsync_tasks o WHERE o.engine = t.engine AND o.state = 'submitted') AS running, (${WAITING_AHEAD}) AS ahead
         FROM remote_lipsync_tasks t WHERE t.work_id = $1 AND t.step = $2 AND t.state = 'queued' FOR UPDATE`,
      [workId, step],
    );
    return rows[0];
  }

  /** Inside the slot decision: the task takes a slot under a new code (submissions counts them, making codes unique). */
  async takeSlot(workId: number): Promise<string> {
    const { rows } = await this.q.query<{ code: string }>(
      `UPDATE remote_lipsync_tasks SET state = 'submitted', submissions = submissions + 1, code = 'w' || work_id || '-' || (submissions + 1), progress = 0
        WHERE work_id = $1 RETURNING code`,
      [workId],
    );
    return rows[0]!.code;
  }

  /**
   * Applies the changes while the task is still at `step`, and with `advance` moves its chain on (step + 1, for the
   * job the caller queues in the same transaction); false when another run already moved it (that run carries on).
   */
  async changeRemoteTask(workId: number, step: number, change: RemoteTaskChange, { advance = false } = {}): Promise<boolean> {
    const sets = advance ? ['step = step + 1'] : [];
    const args: unknown[] = [workId, step];
    for (const [column, value] of Object.entries(change)) {
      args.push(value);
      sets.push(`${column} = $${args.length}`);
    }
    if (!sets.length) sets.push('step = step');
    const { rowCount } = await this.q.query(`UPDATE remote_lipsync_tasks SET ${sets.join(', ')} WHERE work_id = $1 AND step = $2`, args);
    return rowCount > 0;
  }

  /** The work has ended (done or failed): its task leaves the line; answers the objects made only for the engine. */
  async endRemoteTask(workId: number): Promise<{ scratch_keys: string[]; cover_key: string } | undefined> {
    const { rows } = await this.q.query<{ scratch_keys: string[]; cover_key: string }>(
      'DELETE FROM remote_lipsync_tasks WHERE work_id = $1 RETURNING scratch_keys, cover_key',
      [workId],
    );
    return rows[0];
  }
}
