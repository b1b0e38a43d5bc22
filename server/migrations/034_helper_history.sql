-- 超级助手 history (issue 32): my past conversations on /helper/operation (async 0) and /helper/asyncOperation
-- (async 1), each a list of turns: the request, the assistant's words, the steps it showed (JSON text of HelperStep
-- without their plans) and the plan it proposed. Deleting a conversation keeps its plans: a confirmed background task
-- runs on and stays in the task list.
CREATE TABLE helper_conversations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  async smallint NOT NULL DEFAULT 0,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX helper_conversations_user ON helper_conversations (user_id, async, updated_at DESC);

CREATE TABLE helper_turns (
  id serial PRIMARY KEY,
  conversation_id integer NOT NULL REFERENCES helper_conversations (id) ON DELETE CASCADE,
  question text NOT NULL,
  answer text NOT NULL DEFAULT '',
  steps text NOT NULL DEFAULT '[]',
  plan_id integer REFERENCES helper_plans (id) ON DELETE SET NULL,
  error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX helper_turns_conversation ON helper_turns (conversation_id, id);
