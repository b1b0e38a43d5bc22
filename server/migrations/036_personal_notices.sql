-- A notice may be one user's own (a clone that ended while they were elsewhere): NULL user_id is a site notice for all.
ALTER TABLE notices ADD COLUMN user_id integer REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX notices_user_idx ON notices (user_id, created_at DESC);
