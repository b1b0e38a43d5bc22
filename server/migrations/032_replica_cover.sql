-- A video analysis keeps the cover made when its video was read (shown on the analysis and in its history);
-- the record owns it, as copy extraction's records own theirs.
ALTER TABLE replica_videos ADD COLUMN cover_key text NOT NULL DEFAULT '';
