-- Batch creation from a table (issue 35): a batch and its rows, each row one ordinary work. A row keeps its own
-- fields (JSON text as submitted) so a failed row can be submitted again as it was.
CREATE TABLE batches (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The latest zip of its finished videos (replaced when made again).
  zip_key text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batches_user ON batches (user_id, id DESC);

CREATE TABLE batch_rows (
  batch_id integer NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  name text NOT NULL,
  fields text NOT NULL,
  work_id integer REFERENCES works (id) ON DELETE SET NULL,
  cancelled boolean NOT NULL DEFAULT false,
  PRIMARY KEY (batch_id, idx)
);
CREATE INDEX batch_rows_work ON batch_rows (work_id);

-- The fair queue: each user's render turns. A work queued for rendering takes the next turn of its user, never
-- earlier than the turn at the front of the queue; the queue takes the lowest turn first (pg-boss priority = -turn).
CREATE TABLE work_turns (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  last_turn integer NOT NULL
);
ALTER TABLE works ADD COLUMN turn integer;
