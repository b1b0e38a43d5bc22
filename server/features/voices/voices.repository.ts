/**
 * Every statement of the voices feature: voices, the channels that train and speak them (and the operator's
 * channel settings, voice and video alike), training runs, and audition jobs.
 * Training runs share the voice's status numbers (VoiceStatus: training, ready, failed).
 */
import { AuditionStatus, CHANNEL_ENGINES, CHANNEL_KINDS, VOICE_TYPE_NAME_LOCKED, VoiceStatus, WorkStatus, type TimedText } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import type { EngineConfig, EngineVoice, SpeechParams } from '../../engines/speech';

export type VoiceEngineName = (typeof CHANNEL_ENGINES.voice)[number];
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export interface VoiceRow {
  id: number;
  user_id: number | null;
  name: string;
  audio_key: string;
  sample_key: string | null;
  api: string;
  type: number;
  remained_times: number;
  generate_status: number;
  rate: number;
  volume: number;
  pitch: number;
  file_id: number | null;
  confirmed: number;
  reason: string;
  channel_name: string | null;
  version_name: string | null;
  engine_voice: EngineVoice | null;
}

export interface VoiceChannelRow {
  api: string;
  name: string;
  description: string;
  version_name: string;
  credits: number;
  free_times: number;
  train_times: number;
  upload_tips: string;
  language: string;
  enabled: boolean;
  engine: VoiceEngineName;
  config: EngineConfig;
}

/** The operator-editable columns of a channel besides its engine, config and switch. */
export interface ChannelColumns {
  name?: string;
  description?: string;
  version_name?: string;
  credits?: number;
  /** The dubbing studio's price, credits per 100 characters (voice channels). */
  dub_credits?: number;
  free_times?: number;
  train_times?: number;
  upload_tips?: string;
  language?: string;
}

export interface NewTraining {
  voiceId: number;
  userId: number | null;
  api: string;
  fileId: number;
  free?: boolean;
  credits?: number;
  isModify?: boolean;
}

/** A training run as its job reads it: the sample's stored key and the voice's name go to the engine. */
export interface TrainingRunRow {
  status: number;
  remote_id: string;
  checks: number;
  api: string;
  key: string | null;
  name: string;
}

export interface LockedTrainingRow {
  voice_id: number;
  user_id: number | null;
  status: number;
  spend_entry_id: number | null;
  credits: number;
  is_modify: boolean;
  /** The voice's name, for its owner's notice. */
  name: string;
}

export interface SpeechJobRow {
  user_id: number;
  status: number;
  text: string;
  params: SpeechParams;
  voice_id: number | null;
}

export interface AuditionPollRow {
  status: number;
  file_id: number | null;
  key: string | null;
}

/** What a user (or a group of guests) has asked of the synthesis worker lately. */
export interface AuditionLoad {
  running: number;
  lastMinute: number;
}

const VOICE_SELECT = `SELECT v.*, f.object_key AS sample_key, c.name AS channel_name, c.version_name
  FROM voices v LEFT JOIN files f ON f.id = v.file_id LEFT JOIN channels c ON c.kind = 'voice' AND c.api = v.api`;
/** A voice the user may speak with: their own or a public one. */
const SPEAKABLE = 'v.id = $1 AND (v.user_id = $2 OR v.user_id IS NULL)';
/** An audition that never reached an end (a lost job) stops counting as running after this long. */
const AUDITION_RUNNING_WINDOW = `interval '1 hour'`;

export class VoicesRepository {
  constructor(private readonly db: Queryable) {}

  /** A public voice (not a failed one) already has this name. */
  async publicNameTaken(name: string): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM voices WHERE user_id IS NULL AND name = $1 AND generate_status <> $2', [name, VoiceStatus.Failed])).rows.length > 0;
  }

  /** An operator's public voice from a ready audio sample, on channel `api`. */
  async addPublicReady(v: { name: string; audioKey: string; api: string }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO voices (user_id, name, audio_key, api, generate_status) VALUES (NULL, $1, $2, $3, ${VoiceStatus.Ready}) RETURNING id`,
      [v.name, v.audioKey, v.api],
    );
    return rows[0]!.id;
  }

  private async first<T>(sql: string, params: unknown[]): Promise<T | undefined> {
    return (await this.db.query<T>(sql, params)).rows[0];
  }

  // ---- voices

  ownVoice(id: number, userId: number, lock = false): Promise<VoiceRow | undefined> {
    return this.first<VoiceRow>(`${VOICE_SELECT} WHERE v.id = $1 AND v.user_id = $2${lock ? ' FOR UPDATE OF v' : ''}`, [id, userId]);
  }

  speakableVoice(id: number, userId: number): Promise<VoiceRow | undefined> {
    return this.first<VoiceRow>(`${VOICE_SELECT} WHERE ${SPEAKABLE}`, [id, userId]);
  }

  readyVoice(id: number | null, userId: number): Promise<VoiceRow | undefined> {
    return this.first<VoiceRow>(`${VOICE_SELECT} WHERE ${SPEAKABLE} AND v.generate_status = $3`, [id, userId, VoiceStatus.Ready]);
  }

  /** The user's own voices, or the ready public ones, by name; with the totals the list shows. */
  async list(userId: number, query: { mine: boolean; name?: string; page: number; limit: number }): Promise<{ rows: VoiceRow[]; total: number; training: number }> {
    const where = query.mine ? 'v.user_id = $1' : `v.user_id IS NULL AND v.generate_status = ${VoiceStatus.Ready} AND $1::int IS NOT NULL`;
    const paging = query.limit > 0 ? `LIMIT ${query.limit} OFFSET ${(Math.max(query.page, 1) - 1) * query.limit}` : '';
    const args = [userId, query.name ? `%${query.name}%` : '%'];
    const { rows } = await this.db.query<VoiceRow>(`${VOICE_SELECT} WHERE ${where} AND v.name ILIKE $2 ORDER BY v.id ${query.mine ? 'DESC' : ''} ${paging}`, args);
    const counts = (await this.first<{ total: number; training: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE v.generate_status = ${VoiceStatus.Training})::int AS training
         FROM voices v WHERE ${where} AND v.name ILIKE $2`,
      args,
    ))!;
    return { rows, total: counts.total, training: counts.training };
  }

  /** A new voice, training from the start; a public one (userId null) keeps its published audio's key. */
  async addVoice(voice: { userId: number | null; name: string; api: string; fileId: number; remainedTimes?: number; audioKey?: string }): Promise<number> {
    const row = await this.first<{ id: number }>(
      `INSERT INTO voices (user_id, name, api, file_id, remained_times, audio_key, generate_status) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [voice.userId, voice.name, voice.api, voice.fileId, voice.remainedTimes ?? 0, voice.audioKey ?? '', VoiceStatus.Training],
    );
    return row!.id;
  }

  /** A modification: a new sample uses up one modification and trains again (a locked name stays). */
  async retrain(id: number, name: string, fileId: number): Promise<void> {
    await this.db.query(
      `UPDATE voices SET name = CASE WHEN type = ${VOICE_TYPE_NAME_LOCKED} THEN name ELSE $2 END, file_id = $3,
              remained_times = remained_times - 1, generate_status = $4, reason = '' WHERE id = $1`,
      [id, name, fileId, VoiceStatus.Training],
    );
  }

  async rename(id: number, userId: number, name: string): Promise<void> {
    await this.db.query('UPDATE voices SET name = $3 WHERE id = $1 AND user_id = $2', [id, userId, name]);
  }

  async remove(id: number, userId: number): Promise<void> {
    await this.db.query('DELETE FROM voices WHERE id = $1 AND user_id = $2', [id, userId]);
  }

  /** Deletes a public voice; answers what it was, or nothing when there is no such public voice. */
  async removePublic(id: number): Promise<{ id: number; name: string } | undefined> {
    return this.first<{ id: number; name: string }>('DELETE FROM voices WHERE id = $1 AND user_id IS NULL RETURNING id, name', [id]);
  }

  /** Confirmed means fixed: no modification is left, so the voice can be deleted from now on. */
  async confirm(id: number): Promise<void> {
    await this.db.query('UPDATE voices SET confirmed = 1, remained_times = 0 WHERE id = $1', [id]);
  }

  /** Saves an own voice's sliders; false when the user has no such voice. */
  async saveSettings(id: number, userId: number, s: { rate: number; volume: number; pitch: number }): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE voices SET rate = $3, volume = $4, pitch = $5 WHERE id = $1 AND user_id = $2', [id, userId, s.rate, s.volume, s.pitch]);
    return rowCount > 0;
  }

  async isPublicVoice(id: number): Promise<boolean> {
    return !!(await this.first('SELECT 1 FROM voices WHERE id = $1 AND user_id IS NULL', [id]));
  }

  // ---- files the voices are made from

  userFile(id: number, userId: number): Promise<{ kind: string; duration: number } | undefined> {
    return this.first('SELECT kind, duration FROM files WHERE id = $1 AND user_id = $2', [id, userId]);
  }

  async fileIdOfKey(key: string): Promise<number> {
    return (await this.first<{ id: number }>('SELECT id FROM files WHERE object_key = $1', [key]))!.id;
  }

  // ---- channels

  voiceChannel(api: string): Promise<VoiceChannelRow | undefined> {
    return this.first<VoiceChannelRow>(`SELECT * FROM channels WHERE kind = 'voice' AND api = $1`, [api]);
  }

  async enabledVoiceChannels(): Promise<VoiceChannelRow[]> {
    return (await this.db.query<VoiceChannelRow>(`SELECT * FROM channels WHERE kind = 'voice' AND enabled ORDER BY sort, api`)).rows;
  }

  /** The kinds that have a channel with this api code. */
  async channelKinds(api: string): Promise<ChannelKind[]> {
    return (await this.db.query<{ kind: ChannelKind }>('SELECT kind FROM channels WHERE api = $1', [api])).rows.map((r) => r.kind);
  }

  channelForUpdate(kind: ChannelKind, api: string): Promise<{ engine: string; config: Record<string, unknown>; enabled: boolean } | undefined> {
    return this.first('SELECT engine, config, enabled FROM channels WHERE kind = $1 AND api = $2 FOR UPDATE', [kind, api]);
  }

  async addChannel(kind: ChannelKind, api: string, name: string): Promise<void> {
    await this.db.query(`INSERT INTO channels (api, kind, name, engine, sort) VALUES ($1, $2, $3, 'none', 100)`, [api, kind, name]);
  }

  async updateChannel(kind: ChannelKind, api: string, set: { engine: string; config: Record<string, unknown>; enabled: boolean } & ChannelColumns): Promise<void> {
    const { engine, config, enabled, ...columns } = set;
    const sets = ['engine = $3', 'config = $4', 'enabled = $5'];
    const args: unknown[] = [kind, api, engine, JSON.stringify(config), enabled];
    for (const [column, value] of Object.entries(columns)) {
      if (value === undefined) continue;
      args.push(value);
      sets.push(`${column} = $${args.length}`);
    }
    await this.db.query(`UPDATE channels SET ${sets.join(', ')} WHERE kind = $1 AND api = $2`, args);
  }

  // ---- training runs

  /** Free clones of this channel the user has used (failed ones give theirs back). */
  async freeClonesUsed(userId: number, api: string): Promise<number> {
    const row = await this.first<{ used: number }>(
      'SELECT count(*)::int AS used FROM voice_trainings WHERE user_id = $1 AND api = $2 AND free AND status <> $3',
      [userId, api, VoiceStatus.Failed],
    );
    return row!.used;
  }

  /** A training run, made the voice's current one. */
  async addTraining(t: NewTraining): Promise<number> {
    const row = await this.first<{ id: number }>(
      `INSERT INTO voice_trainings (voice_id, user_id, api, file_id, free, credits, is_modify, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [t.voiceId, t.userId, t.api, t.fileId, t.free ?? false, t.credits ?? 0, t.isModify ?? false, VoiceStatus.Training],
    );
    await this.db.query('UPDATE voices SET training_id = $2 WHERE id = $1', [t.voiceId, row!.id]);
    return row!.id;
  }

  async setTrainingSpend(trainingId: number, spendEntryId: number): Promise<void> {
    await this.db.query('UPDATE voice_trainings SET spend_entry_id = $2 WHERE id = $1', [trainingId, spendEntryId]);
  }

  trainingRun(id: number): Promise<TrainingRunRow | undefined> {
    return this.first<TrainingRunRow>(
      `SELECT t.status, t.remote_id, t.checks, t.api, f.object_key AS key, v.name
         FROM voice_trainings t JOIN voices v ON v.id = t.voice_id LEFT JOIN files f ON f.id = t.file_id WHERE t.id = $1`,
      [id],
    );
  }

  lockTraining(id: number): Promise<LockedTrainingRow | undefined> {
    return this.first<LockedTrainingRow>(
      `SELECT t.voice_id, t.user_id, t.status, t.spend_entry_id, t.credits, t.is_modify, coalesce(v.name, '') AS name
         FROM voice_trainings t LEFT JOIN voices v ON v.id = t.voice_id WHERE t.id = $1 FOR UPDATE OF t`,
      [id],
    );
  }

  /** One more "still training" answer; the provider's handle is kept from the first. Returns the count of checks. */
  async countTrainingCheck(id: number, remoteId: string): Promise<number> {
    const row = await this.first<{ checks: number }>(
      `UPDATE voice_trainings SET checks = checks + 1, remote_id = CASE WHEN remote_id = '' THEN $2 ELSE remote_id END WHERE id = $1 RETURNING checks`,
      [id, remoteId],
    );
    return Number(row!.checks);
  }

  /** The run is done: the voice (if this is still its current run) speaks with what the engine made. */
  async trainingReady(id: number, voiceId: number, voice: EngineVoice): Promise<void> {
    await this.db.query('UPDATE voice_trainings SET status = $3, remote_id = $2, finished_at = now() WHERE id = $1', [id, voice.remoteId, VoiceStatus.Ready]);
    await this.db.query('UPDATE voices SET generate_status = $4, engine_voice = $2, reason = \'\' WHERE id = $1 AND training_id = $3', [voiceId, JSON.stringify(voice), id, VoiceStatus.Ready]);
  }

  /** The run failed: a modification gets its modification back, and a voice trained before keeps what it had. */
  async trainingFailed(id: number, voiceId: number, reason: string, isModify: boolean): Promise<void> {
    await this.db.query('UPDATE voice_trainings SET status = $3, reason = $2, finished_at = now() WHERE id = $1', [id, reason, VoiceStatus.Failed]);
    await this.db.query(
      `UPDATE voices SET generate_status = CASE WHEN engine_voice IS NULL THEN $5::smallint ELSE $6::smallint END, reason = $2,
              remained_times = remained_times + $4 WHERE id = $1 AND training_id = $3`,
      [voiceId, reason, id, isModify ? 1 : 0, VoiceStatus.Failed, VoiceStatus.Ready],
    );
  }

  // ---- audition jobs

  /**
   * Locks whoever shares the user's audition allowance and returns their ids: the user, or for a guest every
   * guest made from the same IP. Locked in id order, so concurrent auditions of one group wait for each other
   * and cannot deadlock; called in the transaction that adds the audition.
   */
  async lockAuditioners(userId: number): Promise<number[]> {
    const { rows } = await this.db.query<{ id: number }>(
      `SELECT u.id FROM users u JOIN users me ON me.id = $1
        WHERE u.id = me.id OR (me.is_tourist = 1 AND u.is_tourist = 1 AND u.created_ip = me.created_ip)
        ORDER BY u.id FOR UPDATE OF u`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  async auditionLoad(userIds: number[]): Promise<AuditionLoad> {
    const row = await this.first<{ running: number; last_minute: number }>(
      `SELECT count(*) FILTER (WHERE status < ${AuditionStatus.Done} AND created_at > now() - ${AUDITION_RUNNING_WINDOW})::int AS running,
              count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS last_minute
         FROM speech_jobs WHERE user_id = ANY($1::int[])`,
      [userIds],
    );
    return { running: row!.running, lastMinute: row!.last_minute };
  }

  async addSpeechJob(job: { id: string; userId: number; voiceId: number; text: string; params: SpeechParams }): Promise<void> {
    await this.db.query('INSERT INTO speech_jobs (id, user_id, voice_id, text, params, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      job.id, job.userId, job.voiceId, job.text, JSON.stringify(job.params), AuditionStatus.Queued,
    ]);
  }

  speechJob(id: string): Promise<SpeechJobRow | undefined> {
    return this.first<SpeechJobRow>('SELECT user_id, status, text, params, voice_id FROM speech_jobs WHERE id = $1', [id]);
  }

  ownSpeechJob(id: string, userId: number): Promise<AuditionPollRow | undefined> {
    return this.first<AuditionPollRow>(
      'SELECT j.status, j.file_id, f.object_key AS key FROM speech_jobs j LEFT JOIN files f ON f.id = j.file_id WHERE j.id = $1 AND j.user_id = $2',
      [id, userId],
    );
  }

  async speechJobRunning(id: string): Promise<void> {
    await this.db.query('UPDATE speech_jobs SET status = $2 WHERE id = $1 AND status = $3', [id, AuditionStatus.Running, AuditionStatus.Queued]);
  }

  /** Ends an unfinished job with its file and the timed text of what it spoke; false when it had already ended (a retry that lost the race). */
  async speechJobDone(id: string, fileId: number, captions: TimedText[]): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE speech_jobs SET status = $3, file_id = $2, captions = $4, finished_at = now() WHERE id = $1 AND status < $3',
      [id, fileId, AuditionStatus.Done, JSON.stringify(captions)],
    );
    return rowCount > 0;
  }

  /** The timed text of the user's audition behind this file (null for a file no audition made, or one made before it was kept). */
  async auditionCaptions(fileId: number, userId: number): Promise<TimedText[] | null> {
    const row = await this.first<{ captions: TimedText[] | null }>('SELECT captions FROM speech_jobs WHERE file_id = $1 AND user_id = $2 ORDER BY created_at DESC LIMIT 1', [fileId, userId]);
    return row?.captions ?? null;
  }

  async speechJobFailed(id: string, reason: string): Promise<void> {
    await this.db.query('UPDATE speech_jobs SET status = $3, reason = $2, finished_at = now() WHERE id = $1 AND status < $4', [id, reason, AuditionStatus.Failed, AuditionStatus.Done]);
  }

  /** Deletes audition jobs older than `hours` unless an unfinished work still uses their file; returns those files' keys. */
  async deleteOldSpeechJobs(hours: number): Promise<string[]> {
    const { rows } = await this.db.query<{ key: string | null }>(
      `DELETE FROM speech_jobs j WHERE j.created_at < now() - make_interval(hours => $1)
          AND NOT EXISTS (SELECT 1 FROM works w WHERE w.audio_file_id = j.file_id AND w.status < $2)
        RETURNING (SELECT object_key FROM files f WHERE f.id = j.file_id) AS key`,
      [hours, WorkStatus.Success],
    );
    return rows.map((r) => r.key ?? '');
  }
}
