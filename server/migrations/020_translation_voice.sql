-- Which voice spoke a translation's dub (part 2 §2.7): voice is what the record shows ('' until the job decided);
-- clone is the temporary voice cloned from the video's own speech on a cloning channel ({api, voice: EngineVoice}),
-- kept only until the dub is made (so a retried job speaks with it instead of cloning again), then discarded.
ALTER TABLE translations ADD COLUMN voice text NOT NULL DEFAULT '';
ALTER TABLE translations ADD COLUMN clone jsonb;
