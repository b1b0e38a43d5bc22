-- Subtitles of spoken works. captions: the timed text of a work's speech (sentences with their start and end in
-- seconds, as JSON), kept as soon as the render job has it (a work on a remote engine is collected by a later run);
-- srt_key: the SRT made of it when the work is done (the works list's `srt`). An audition keeps the timed text of
-- what it spoke, so a work submitted with that audition has it too.
ALTER TABLE works ADD COLUMN captions jsonb;
ALTER TABLE works ADD COLUMN srt_key text NOT NULL DEFAULT '';
ALTER TABLE speech_jobs ADD COLUMN captions jsonb;
