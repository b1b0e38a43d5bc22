-- The material library: the user's uploaded media (source 1) and what tools saved (source 2).
CREATE TABLE materials (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('video', 'audio', 'image', 'text')),
  name text NOT NULL,
  source smallint NOT NULL CHECK (source IN (1, 2)),
  origin text NOT NULL DEFAULT '',
  file_id integer REFERENCES files (id) ON DELETE CASCADE,
  text text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX materials_user ON materials (user_id, type, id DESC);
