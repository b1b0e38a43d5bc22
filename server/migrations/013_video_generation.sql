-- Text to video and image to video (part 2 §2.9, §3): generation records, the inspiration word bank, the
-- recommendations and each user's presets. A record is made with its credits reserved (spend_entry_id); the job
-- renders it (engine local) or submits and polls it at the provider (engine kling, remote_id), copies the result
-- into our storage, and a failure refunds the credits. status: VideoTaskStatus of the contract.
CREATE TABLE video_generations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('text', 'image')),
  engine text NOT NULL,
  status smallint NOT NULL,
  prompt text NOT NULL,
  negative_prompt text NOT NULL DEFAULT '',
  cfg_scale real NOT NULL,
  mode text NOT NULL,
  duration integer NOT NULL,
  aspect_ratio text NOT NULL,
  image_mode smallint NOT NULL DEFAULT 1,
  image_key text NOT NULL DEFAULT '',
  image_tail_key text NOT NULL DEFAULT '',
  org_data text NOT NULL DEFAULT '',
  credits integer NOT NULL,
  spend_entry_id integer,
  remote_id text NOT NULL DEFAULT '',
  polls integer NOT NULL DEFAULT 0,
  video_key text NOT NULL DEFAULT '',
  cover_key text NOT NULL DEFAULT '',
  result_duration real NOT NULL DEFAULT 0,
  error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX video_generations_user ON video_generations (user_id, type, id DESC);

-- The word bank: groups in position order, each with its words (is_multi: several may be chosen).
CREATE TABLE video_prompt_groups (
  id serial PRIMARY KEY,
  name text NOT NULL,
  position integer NOT NULL
);
CREATE TABLE video_prompt_words (
  id serial PRIMARY KEY,
  group_id integer NOT NULL REFERENCES video_prompt_groups (id) ON DELETE CASCADE,
  name text NOT NULL,
  demo_url text NOT NULL DEFAULT '',
  is_multi smallint NOT NULL DEFAULT 0,
  position integer NOT NULL
);

CREATE TABLE video_prompt_recommends (
  id serial PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('text', 'image')),
  content text NOT NULL,
  image text NOT NULL DEFAULT ''
);

CREATE TABLE user_prompts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_prompts_user ON user_prompts (user_id, id DESC);
