-- The public API (issue 34): personal keys (only their sha256 is kept), the first answer of each idempotent POST,
-- and the signed webhook deliveries of a key's callback URL.
CREATE TABLE api_keys (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The first characters of the key, to tell keys apart in the list; the rest exists only as its hash.
  prefix text NOT NULL,
  hash text NOT NULL UNIQUE,
  -- Signs the webhook deliveries: shown with the key, once.
  webhook_secret text NOT NULL,
  webhook_url text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_user ON api_keys (user_id, id DESC);

CREATE TABLE api_idempotency (
  key_id integer NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  idem_key text NOT NULL,
  request_hash text NOT NULL,
  -- NULL while the first request runs.
  status smallint,
  body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, idem_key)
);

CREATE TABLE api_webhook_deliveries (
  id serial PRIMARY KEY,
  key_id integer NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  event text NOT NULL,
  object_id integer NOT NULL,
  body text NOT NULL,
  -- 1 pending, 2 delivered, 3 gave up
  status smallint NOT NULL DEFAULT 1,
  attempts integer NOT NULL DEFAULT 0,
  last_code integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (key_id, event, object_id)
);
CREATE INDEX api_webhook_deliveries_key ON api_webhook_deliveries (key_id, id DESC);
