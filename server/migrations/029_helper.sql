-- 超级助手 (issue 32): what the assistant proposes to run for a user, waiting for that user's confirmation. A plan
-- holds the spending tool calls of one request (one total price on the confirmation card); once confirmed its items
-- run as the user through the calls' own routes, at once or (async = 1) one after another in a background job.
-- params is the call's request as the model wrote it (JSON text), checked against the call's schema when proposed.
CREATE TABLE helper_plans (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  async smallint NOT NULL DEFAULT 0,
  -- HelperPlanStatus: 1 awaiting confirmation, 2 running, 3 done, 4 cancelled
  status smallint NOT NULL DEFAULT 1,
  request text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX helper_plans_user ON helper_plans (user_id, async, id DESC);

CREATE TABLE helper_items (
  id serial PRIMARY KEY,
  plan_id integer NOT NULL REFERENCES helper_plans (id) ON DELETE CASCADE,
  position integer NOT NULL,
  call_id text NOT NULL,
  params text NOT NULL,
  label text NOT NULL,
  credits integer NOT NULL DEFAULT 0,
  -- HelperItemStatus: 1 waiting, 2 running, 3 done, 4 failed, 5 cancelled
  status smallint NOT NULL DEFAULT 1,
  result text NOT NULL DEFAULT ''
);
CREATE INDEX helper_items_plan ON helper_items (plan_id, position);
