-- Multi-scene works on a remote lip-sync engine (issue 33): one task renders the work's scenes one after another.
-- `scenes` holds each scene's inputs ({"audio_key", "video_key"}; '[]' for a single work), `scene` the one at the
-- engine now (its inputs are also audio_key/video_key), `results` the stored result of each scene done so far
-- (objects also in scratch_keys, so they go when the work ends).
ALTER TABLE remote_lipsync_tasks ADD COLUMN scene integer NOT NULL DEFAULT 0;
ALTER TABLE remote_lipsync_tasks ADD COLUMN scenes jsonb NOT NULL DEFAULT '[]';
ALTER TABLE remote_lipsync_tasks ADD COLUMN results text[] NOT NULL DEFAULT '{}';
