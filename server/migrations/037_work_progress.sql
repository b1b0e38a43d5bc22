-- A render on this machine tells its progress to the works card, as a remote engine's does: the share of frames done
-- and when the render began (for the time left).
ALTER TABLE works ADD COLUMN local_progress smallint, ADD COLUMN render_started_at timestamptz;
