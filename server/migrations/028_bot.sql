-- AI super employee (issue 32): bots that operators define (the system prompt stays here: no call answers it), the
-- users who employed them, and their conversations. A bot appears as a public picture (avatar_key) or a public avatar
-- (avatar_id). removed_at takes a bot off the catalogue and off everyone's employees; conversations stay readable.
-- Answers live as the copy chat's do: pending with the send, streaming once, then done or failed; credits (the bot's
-- price when the answer was sent) are spent when the stream starts and refunded as the copy chat's are.
CREATE TABLE bots (
  id serial PRIMARY KEY,
  type text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  avatar_key text NOT NULL DEFAULT '',
  avatar_id integer REFERENCES avatars (id) ON DELETE SET NULL,
  voice_id integer REFERENCES voices (id) ON DELETE SET NULL,
  welcome text NOT NULL DEFAULT '',
  prompt text NOT NULL,
  credits integer NOT NULL,
  -- The public avatar's mouth region as JSON {x, y, w, h} (fractions of its video), from its face track; '' when none.
  mouth text NOT NULL DEFAULT '',
  removed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bots_live_name ON bots (name) WHERE removed_at IS NULL;

CREATE TABLE bot_employees (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bot_id integer NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, bot_id)
);

CREATE TABLE bot_conversations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bot_id integer NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bot_conversations_user ON bot_conversations (user_id, updated_at DESC, id DESC);

CREATE TABLE bot_messages (
  id serial PRIMARY KEY,
  conversation_id integer NOT NULL REFERENCES bot_conversations (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL DEFAULT '',
  status smallint NOT NULL,
  credits integer NOT NULL DEFAULT 0,
  spend_entry_id integer,
  error text NOT NULL DEFAULT '',
  stream_heartbeat_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bot_messages_conversation ON bot_messages (conversation_id, id);
