-- Copy extraction records (/copywrite/index, issue 28). way: 1 link, 2 uploaded video (CopywriteType). status:
-- CopywriteStatus of the contract. source: where the copy was read ('asr' the speech, 'ocr' the captions on screen;
-- '' until read). text: the copy (the user's edit once edited); segments: the sentences as read, [{start, end, text}].
-- free: a free daily extraction was used instead of credits (a failed one gives it back). A record owns its cover.
CREATE TABLE copy_records (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  way smallint NOT NULL,
  link text NOT NULL DEFAULT '',
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  title text NOT NULL DEFAULT '',
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT '',
  text text NOT NULL DEFAULT '',
  segments jsonb NOT NULL DEFAULT '[]',
  cover_key text NOT NULL DEFAULT '',
  duration real NOT NULL DEFAULT 0,
  free boolean NOT NULL DEFAULT false,
  spend_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX copy_records_owner ON copy_records (user_id, id DESC);
