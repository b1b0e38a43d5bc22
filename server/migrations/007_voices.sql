-- Voice cloning: channels that train voices, each training run (credits, free times, the engine's handle),
-- and audition jobs (text → speech file).

-- The offline channel is always there and free; the providers wait for an operator's keys.
INSERT INTO channels (api, kind, name, description, version_name, credits, free_times, train_times, upload_tips, language, enabled, engine, sort) VALUES
  ('local', 'voice', '离线声音', '本机离线引擎：按样本测得的音高与语速调整合成声音，不复制音色。无需联网，免费。', '1.0', 0, 0, 3,
   '建议上传3-5分钟清晰的人声录音，至少10秒。', '普通话、粤语、英语', true, 'local', 40),
  ('fish', 'voice', 'Fish Audio', '高保真声音克隆，复制音色，约1-3分钟完成训练。', '2.0', 100, 1, 3,
   '建议上传3-5分钟清晰的人声录音，至少10秒。', '中文、英语、日语等多语种', false, 'fish', 10),
  ('mm', 'voice', 'MiniMax', '快速声音克隆，支持情绪与停顿标记，秒级完成。', '3.0', 150, 1, 3,
   '建议上传10秒到5分钟清晰的人声录音。', '中文、粤语、英语等多语种', false, 'minimax', 20);

ALTER TABLE voices ADD COLUMN reason text NOT NULL DEFAULT '';
ALTER TABLE voices ADD COLUMN confirmed smallint NOT NULL DEFAULT 0;
ALTER TABLE voices ADD COLUMN channel_name text NOT NULL DEFAULT '';
-- What the channel's engine needs to speak with this voice: { remoteId, profile }.
ALTER TABLE voices ADD COLUMN engine_voice jsonb;
ALTER TABLE voices ADD COLUMN training_id integer;

CREATE TABLE voice_trainings (
  id serial PRIMARY KEY,
  voice_id integer NOT NULL REFERENCES voices (id) ON DELETE CASCADE,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  api text NOT NULL,
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  -- 1 training, 2 ready, 3 failed (the voice's generate_status values).
  status smallint NOT NULL DEFAULT 1,
  free boolean NOT NULL DEFAULT false,
  credits integer NOT NULL DEFAULT 0,
  spend_entry_id integer,
  -- The provider's handle once training started there.
  remote_id text NOT NULL DEFAULT '',
  checks integer NOT NULL DEFAULT 0,
  -- A modification gives its remained_times back when it fails.
  is_modify boolean NOT NULL DEFAULT false,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX voice_trainings_user_api ON voice_trainings (user_id, api);

CREATE TABLE speech_jobs (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  voice_id integer REFERENCES voices (id) ON DELETE SET NULL,
  text text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  -- 1 queued, 2 running, 3 done, 4 failed (the audition poll's status).
  status smallint NOT NULL DEFAULT 1,
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX speech_jobs_user ON speech_jobs (user_id, created_at);
