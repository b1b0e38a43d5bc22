-- Accounts: extra space bought, where a guest came from; notices; tutorials; files (for space used);
-- avatars and voices (public ones for the home page now; the media and voice pipelines extend them).
ALTER TABLE users ADD COLUMN space_extra_gb integer NOT NULL DEFAULT 0 CHECK (space_extra_gb >= 0);
ALTER TABLE users ADD COLUMN created_ip text NOT NULL DEFAULT '';
CREATE INDEX users_guest_ip ON users (created_ip, created_at) WHERE is_tourist = 1;

CREATE TABLE notices (
  id serial PRIMARY KEY,
  title text NOT NULL,
  summary text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notice_reads (
  notice_id integer NOT NULL REFERENCES notices (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (notice_id, user_id)
);

CREATE TABLE guide_categories (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE guides (
  id serial PRIMARY KEY,
  category_id integer NOT NULL REFERENCES guide_categories (id) ON DELETE CASCADE,
  name text NOT NULL,
  cover text NOT NULL,
  video_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every stored object a user owns counts toward their space; public objects have no owner.
CREATE TABLE files (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('video', 'voice', 'image', 'other')),
  object_key text NOT NULL UNIQUE,
  size bigint NOT NULL CHECK (size >= 0),
  duration real NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_user ON files (user_id);

CREATE TABLE avatars (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  video_key text NOT NULL DEFAULT '',
  cover_key text NOT NULL DEFAULT '',
  cover_small_key text NOT NULL DEFAULT '',
  orientation smallint NOT NULL DEFAULT 2 CHECK (orientation IN (1, 2)),
  duration real NOT NULL DEFAULT 0,
  status smallint NOT NULL DEFAULT 3,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX avatars_user ON avatars (user_id, id);
CREATE INDEX avatars_public ON avatars (orientation, id) WHERE user_id IS NULL;

CREATE TABLE voices (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  audio_key text NOT NULL DEFAULT '',
  api text NOT NULL DEFAULT 'local',
  type smallint NOT NULL DEFAULT 0,
  remained_times integer NOT NULL DEFAULT 0,
  generate_status smallint NOT NULL DEFAULT 2,
  rate real NOT NULL DEFAULT 1,
  volume real NOT NULL DEFAULT 1,
  pitch real NOT NULL DEFAULT 1,
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX voices_user ON voices (user_id, id);
