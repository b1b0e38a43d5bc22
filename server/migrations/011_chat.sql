-- Copy chat (part 2 §2.10, §3, §4): conversations and their messages. An assistant message is made with the
-- send (status pending), streamed once (streaming), then done or failed. Its credits are spent when the stream
-- starts (spend_entry_id) and refunded when the answer fails or stops before any text.
CREATE TABLE chat_conversations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_conversations_user ON chat_conversations (user_id, updated_at DESC, id DESC);

CREATE TABLE chat_messages (
  id serial PRIMARY KEY,
  conversation_id integer NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL DEFAULT '',
  -- r1's chain of thought: shown apart, never sent upstream again.
  reasoning text NOT NULL DEFAULT '',
  model text NOT NULL DEFAULT 'v3',
  status smallint NOT NULL,
  spend_entry_id integer,
  error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_conversation ON chat_messages (conversation_id, id);
