-- Accounts, sessions, login throttling, settings, and the credits ledger's tables.
CREATE TABLE users (
  id serial PRIMARY KEY,
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  avatar text NOT NULL DEFAULT '',
  is_tourist smallint NOT NULL DEFAULT 0 CHECK (is_tourist IN (0, 1)),
  expire_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Session tokens are random; only their SHA-256 is stored.
CREATE TABLE sessions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE login_failures (
  id bigserial PRIMARY KEY,
  username text NOT NULL,
  ip text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_username ON login_failures (username, at);
CREATE INDEX login_failures_ip ON login_failures (ip, at);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Credits: grants are immutable batches with an expiry; spends and refunds are append-only entries
-- whose allocations say which batches they drew from (refunds allocate negative amounts to the same batches).
CREATE TABLE credit_batches (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  amount integer NOT NULL CHECK (amount > 0),
  expires_at timestamptz NOT NULL,
  source text NOT NULL,
  source_ref text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_batches_user ON credit_batches (user_id, expires_at);

CREATE TABLE credit_entries (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('spend', 'refund')),
  amount integer NOT NULL CHECK (amount > 0),
  action_name text NOT NULL,
  idempotency_key text NOT NULL,
  refund_of integer REFERENCES credit_entries (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);

CREATE TABLE credit_allocations (
  entry_id integer NOT NULL REFERENCES credit_entries (id) ON DELETE CASCADE,
  batch_id integer NOT NULL REFERENCES credit_batches (id) ON DELETE CASCADE,
  amount integer NOT NULL CHECK (amount <> 0),
  PRIMARY KEY (entry_id, batch_id)
);
CREATE INDEX credit_allocations_batch ON credit_allocations (batch_id);

CREATE TABLE redeem_codes (
  code text PRIMARY KEY,
  credits integer NOT NULL CHECK (credits > 0),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_by integer REFERENCES users (id) ON DELETE SET NULL,
  used_at timestamptz
);
