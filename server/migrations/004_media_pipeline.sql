-- Channels (video and voice), the avatar pipeline's outputs, and works.
CREATE TABLE channels (
  api text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('video', 'voice')),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  version_name text NOT NULL DEFAULT '',
  credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  free_times integer NOT NULL DEFAULT 0,
  train_times integer NOT NULL DEFAULT 0,
  upload_tips text NOT NULL DEFAULT '',
  language text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT false,
  engine text NOT NULL DEFAULT 'none',
  config jsonb NOT NULL DEFAULT '{}',
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, api)
);

-- The offline engine is always there; the lip-sync channels wait for an operator to configure their engine.
INSERT INTO channels (api, kind, name, description, version_name, credits, enabled, engine, sort) VALUES
  ('local', 'video', '本地合成', '离线引擎：数字人视频按音频时长循环或截取后配上声音，不做口型同步。', '1.0', 1, true, 'local', 40),
  ('fy', 'video', '深度训练', '效果最佳，口型精细，约6-10分钟。', '3.0', 15, false, 'none', 10),
  ('df', 'video', '极速训练', '速度与效果兼顾，约3-5分钟。', '2.0', 8, false, 'none', 20),
  ('gj', 'video', '免费通道', '免费排队，时间不定；数字人视频需30-300秒。', '1.0', 0, false, 'none', 30),
  ('ou', 'video', '排队训练', '排队训练中，完成后自动生成。', '1.0', 5, false, 'none', 35);

ALTER TABLE avatars ADD COLUMN loop_key text NOT NULL DEFAULT '';
ALTER TABLE avatars ADD COLUMN source_file_id integer REFERENCES files (id) ON DELETE SET NULL;
ALTER TABLE avatars ADD COLUMN width integer NOT NULL DEFAULT 0;
ALTER TABLE avatars ADD COLUMN height integer NOT NULL DEFAULT 0;

CREATE TABLE works (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  api text NOT NULL,
  status smallint NOT NULL DEFAULT 1,
  is_multi smallint NOT NULL DEFAULT 0,
  only_audio smallint NOT NULL DEFAULT 0,
  photo_type smallint NOT NULL DEFAULT 0,
  avatar_id integer REFERENCES avatars (id) ON DELETE SET NULL,
  audio_file_id integer REFERENCES files (id) ON DELETE SET NULL,
  text text NOT NULL DEFAULT '',
  params jsonb NOT NULL DEFAULT '{}',
  video_key text NOT NULL DEFAULT '',
  cover_key text NOT NULL DEFAULT '',
  duration real NOT NULL DEFAULT 0,
  reason text NOT NULL DEFAULT '',
  price integer NOT NULL DEFAULT 0,
  reserved integer NOT NULL DEFAULT 0,
  charged integer NOT NULL DEFAULT 0,
  spend_entry_id integer REFERENCES credit_entries (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX works_user ON works (user_id, id DESC);
