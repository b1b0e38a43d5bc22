-- Works rendered by a remote lip-sync engine (HeyGem / Duix.Avatar): one row per work while it waits in our queue
-- for a slot of the engine's concurrency limit (queued), runs there (submitted) or has its result located (done).
-- The row goes when the work finishes or fails. `step` is the render job's chain token: only the job carrying the
-- current step acts, so a retried job and its successor never both poll.
CREATE TABLE remote_lipsync_tasks (
  work_id integer PRIMARY KEY REFERENCES works (id) ON DELETE CASCADE,
  engine text NOT NULL,
  code text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'submitted', 'done')),
  result text NOT NULL DEFAULT '',
  progress smallint NOT NULL DEFAULT 0,
  queued_at timestamptz NOT NULL DEFAULT now(),
  submissions integer NOT NULL DEFAULT 0,
  lost integer NOT NULL DEFAULT 0,
  checks integer NOT NULL DEFAULT 0,
  step integer NOT NULL DEFAULT 0,
  audio_key text NOT NULL,
  video_key text NOT NULL,
  cover_key text NOT NULL DEFAULT '',
  scratch_keys text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX remote_lipsync_tasks_line ON remote_lipsync_tasks (engine, state, queued_at, work_id);
