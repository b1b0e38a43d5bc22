-- One name per feature: every job is named <feature>-<verb> (server/infra/queue.ts). Jobs that are queued, waiting
-- to retry, running or kept as history under the earlier names when this runs move to the new names, with their
-- ids, attempts and timings, and the extraction job's payload field becomes extractionId.
-- The names below are the earlier ones on purpose. names-codemod: keep old names
--
-- A new database has no pg-boss schema yet when migrations run (the queue creates it right after): then only our
-- own queue_running table is looked at, and it is empty. pg-boss (10.x) keeps one partition of pgboss.job per
-- queue, so the new queue is made first with its own create_queue (as JobQueue.start would), the jobs moved into
-- it, and the old queue dropped with delete_queue (its schedule goes with it; the queue schedules the new name).
-- Old-version processes must be stopped before the first new one starts, or they would queue old names again.
DO $$
DECLARE
  renamed record;
  boss boolean := to_regclass('pgboss.queue') IS NOT NULL;
BEGIN
  SET CONSTRAINTS ALL IMMEDIATE;
  FOR renamed IN
    SELECT * FROM (VALUES
      ('session-sweep', 'account-sweep'),
      ('audition-sweep', 'voices-sweep'),
      ('avatar-clone', 'avatars-clone'),
      ('work-render', 'works-render'),
      ('voice-train', 'voices-train'),
      ('speech-synthesize', 'voices-synthesize'),
      ('image-generate', 'imagegen-run'),
      ('video-generate', 'videogen-run')
    ) AS r (old_name, new_name)
  LOOP
    UPDATE queue_running SET name = renamed.new_name WHERE name = renamed.old_name;
    -- Nested: PL/pgSQL parses a statement when it first runs it, so nothing below names pgboss without its schema.
    IF boss THEN
      IF EXISTS (SELECT 1 FROM pgboss.queue WHERE name = renamed.old_name) THEN
        PERFORM pgboss.create_queue(renamed.new_name, '{"policy":"standard"}'::json);
        UPDATE pgboss.job SET name = renamed.new_name WHERE name = renamed.old_name;
        PERFORM pgboss.delete_queue(renamed.old_name);
      END IF;
      UPDATE pgboss.archive SET name = renamed.new_name WHERE name = renamed.old_name;
    END IF;
  END LOOP;
  IF boss THEN
    UPDATE pgboss.job SET data = (data - 'analyseId') || jsonb_build_object('extractionId', data -> 'analyseId')
     WHERE name = 'extraction-run' AND data ? 'analyseId';
  END IF;
END
$$;
