-- Video and audio extraction records (part 2 §2.5, §2.6, §3, §4). kind: 1 video, 2 audio; way: 1 link, 2 uploaded
-- video (AudioExtractType). status: AnalyseStatus of the contract. A record owns its media and cover objects.
-- free: the extraction used a free daily count instead of credits (a failed one gives it back).
CREATE TABLE analyses (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind smallint NOT NULL,
  way smallint NOT NULL,
  link text NOT NULL DEFAULT '',
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  media_key text NOT NULL DEFAULT '',
  cover_key text NOT NULL DEFAULT '',
  size bigint NOT NULL DEFAULT 0,
  duration real NOT NULL DEFAULT 0,
  free boolean NOT NULL DEFAULT false,
  spend_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX analyses_owner ON analyses (user_id, kind, id DESC);
