-- One-click creation (/cozeVideo, issue 29). A project: the user's storyboard as the editor keeps it (JSON text, saved
-- as it changes), how many scenes it has, and its latest render (a work; the work stays on /works when the project
-- is deleted, and the project shows a draft again when the work is deleted).
CREATE TABLE oneclick_projects (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT '',
  draft text NOT NULL DEFAULT '{}',
  scene_count integer NOT NULL DEFAULT 0,
  work_id integer REFERENCES works (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oneclick_projects_owner ON oneclick_projects (user_id, updated_at DESC, id DESC);

-- A work made by one-click creation (the works page's 一键成片 tab).
ALTER TABLE works ADD COLUMN oneclick smallint NOT NULL DEFAULT 0;
