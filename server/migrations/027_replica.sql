-- Super replica (/explosiveAnalysis, issue 30), every row private to its user. Personas and products are the user's
-- own notes; a product's picture is an uploaded image (gone with the file). A video analysis: way 1 link, 2 upload
-- (CopywriteType), status ReplicaStatus of the contract, its copy and timed sentences [{start, end, text}] as copy
-- extraction reads them, then the chat engine's analysis (VideoAnalysis); spend_entry_id: what it reserved. Account
-- analyses keep the pasted description and the answer (AccountAnalysis). Scripts: kind 'mimic' (a 仿写 of an
-- analysis) or 'generate' (from a topic), the persona's and product's names as they were, and the variants.
CREATE TABLE replica_personas (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  industry text NOT NULL DEFAULT '',
  audience text NOT NULL DEFAULT '',
  tone text NOT NULL DEFAULT '',
  selling_points text NOT NULL DEFAULT '',
  catchphrases text NOT NULL DEFAULT '',
  taboo text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replica_personas_owner ON replica_personas (user_id, id DESC);

CREATE TABLE replica_products (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  category text NOT NULL DEFAULT '',
  price numeric(12, 2) NOT NULL DEFAULT 0,
  selling_points text NOT NULL DEFAULT '',
  audience text NOT NULL DEFAULT '',
  scenes text NOT NULL DEFAULT '',
  image_file_id integer REFERENCES files (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replica_products_owner ON replica_products (user_id, id DESC);

CREATE TABLE replica_videos (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  way smallint NOT NULL,
  link text NOT NULL DEFAULT '',
  file_id integer REFERENCES files (id) ON DELETE SET NULL,
  title text NOT NULL DEFAULT '',
  status smallint NOT NULL,
  reason text NOT NULL DEFAULT '',
  text text NOT NULL DEFAULT '',
  segments jsonb NOT NULL DEFAULT '[]',
  duration real NOT NULL DEFAULT 0,
  analysis jsonb,
  spend_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX replica_videos_owner ON replica_videos (user_id, id DESC);

CREATE TABLE replica_accounts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  description text NOT NULL,
  analysis jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replica_accounts_owner ON replica_accounts (user_id, id DESC);

CREATE TABLE replica_scripts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  analysis_id integer REFERENCES replica_videos (id) ON DELETE SET NULL,
  persona_name text NOT NULL DEFAULT '',
  product_name text NOT NULL DEFAULT '',
  topic text NOT NULL DEFAULT '',
  variants jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replica_scripts_owner ON replica_scripts (user_id, id DESC);
