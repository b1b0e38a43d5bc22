-- Worker liveness (server/infra/queue.ts): each worker process beats here while it lives, and notes the jobs it is
-- running. A job whose worker stopped beating is failed at once (so the queue retries it) instead of waiting out its
-- whole allowance, which for a long render is minutes.
CREATE TABLE queue_workers (
  id text PRIMARY KEY,
  pid integer NOT NULL,
  host text NOT NULL,
  beat_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE queue_running (
  job_id uuid PRIMARY KEY,
  name text NOT NULL,
  worker_id text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_running_worker ON queue_running (worker_id);
