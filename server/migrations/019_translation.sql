-- Video translation records (part 2 §2.7; works page type2 = 3). status: WorkStatus of the contract; mode: TranslateMode.
-- The pipeline's steps keep what they made so a retried job resumes: transcript (the recognition's timed segments),
-- lines (their translations), dub_key (the fitted speech mixed over the background, an object of the user's).
-- reserved: credits charged at submit (by the upload's length); charged: what the result's length settled it to.
CREATE TABLE translations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  name text NOT NULL,
  source_lang text NOT NULL,
  target_lang text NOT NULL,
  mode smallint NOT NULL,
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  source_seconds real NOT NULL DEFAULT 0,
  duration real NOT NULL DEFAULT 0,
  reserved integer NOT NULL DEFAULT 0,
  charged integer NOT NULL DEFAULT 0,
  spend_entry_id integer,
  transcript jsonb,
  lines jsonb,
  dub_key text NOT NULL DEFAULT '',
  video_key text NOT NULL DEFAULT '',
  srt_key text NOT NULL DEFAULT '',
  cover_key text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX translations_owner ON translations (user_id, id DESC);
