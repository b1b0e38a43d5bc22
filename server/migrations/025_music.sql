-- AI music (/store/music/index) and the music library.
-- A task: what the user asked (title, description, lyrics as given or as written from the description, instrumental),
-- status (MusicStatus of the contract) and its reason when failed; credits reserved at submit and the spend entry they
-- are refunded against; the result (an object of the user's, copied from the provider at once) and its length;
-- background: marked by the user for the music pickers.
CREATE TABLE music_tasks (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL,
  prompt text NOT NULL,
  lyrics text NOT NULL DEFAULT '',
  instrumental boolean NOT NULL DEFAULT false,
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  credits integer NOT NULL DEFAULT 0,
  spend_entry_id integer,
  audio_key text NOT NULL DEFAULT '',
  duration real NOT NULL DEFAULT 0,
  background boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX music_tasks_owner ON music_tasks (user_id, id DESC);

-- The operator's published tracks (`npm run admin -- music publish`): public objects, loudness-normalised.
CREATE TABLE music_library (
  id serial PRIMARY KEY,
  name text NOT NULL,
  mood text NOT NULL DEFAULT '',
  audio_key text NOT NULL,
  duration real NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
