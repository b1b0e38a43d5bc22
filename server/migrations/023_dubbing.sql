-- The dubbing studio (/store/dubbing/index). A voice channel's dubbing price: credits per 100 characters
-- (`channel set <api> --dub-credits n`); the offline engine is free whatever this says. Cloud providers start priced,
-- self-hosted servers free until the operator prices them.
ALTER TABLE channels ADD COLUMN dub_credits integer NOT NULL DEFAULT 0 CHECK (dub_credits >= 0);
UPDATE channels SET dub_credits = 2 WHERE kind = 'voice' AND api = 'fish';
UPDATE channels SET dub_credits = 3 WHERE kind = 'voice' AND api = 'mm';

-- A dub: its lines as submitted (voice ids, settings, pauses, role names, and each voice's name and channel at submit),
-- the gap between lines, optional background music (a file of the user's) and its level. status: DubbingStatus of the
-- contract. reserved: credits charged at submit; charged: settled on the characters spoken. audio_key/srt_key: the
-- results (objects of the user's); cues: each line's [start, end] in the result, seconds.
CREATE TABLE dubbings (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  lines jsonb NOT NULL,
  gap real NOT NULL DEFAULT 0.3,
  bgm_file_id integer REFERENCES files (id) ON DELETE SET NULL,
  bgm_volume real NOT NULL DEFAULT 0.3,
  chars integer NOT NULL DEFAULT 0,
  reserved integer NOT NULL DEFAULT 0,
  charged integer NOT NULL DEFAULT 0,
  spend_entry_id integer,
  audio_key text NOT NULL DEFAULT '',
  srt_key text NOT NULL DEFAULT '',
  duration real NOT NULL DEFAULT 0,
  cues jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX dubbings_owner ON dubbings (user_id, id DESC);
