-- Attempt limits beyond login (password change, registration by code) share login_failures, told apart by kind.
-- A row is written *before* the password or code is checked (a reservation) and removed on success.
ALTER TABLE login_failures ADD COLUMN kind text NOT NULL DEFAULT 'login';
CREATE INDEX login_failures_kind_username ON login_failures (kind, username, at);
CREATE INDEX login_failures_kind_ip ON login_failures (kind, ip, at);
DROP INDEX login_failures_username;
DROP INDEX login_failures_ip;

-- Login captchas: a server-made image, its answer kept here, single use, short-lived.
CREATE TABLE captchas (
  id text PRIMARY KEY,
  answer text NOT NULL,
  ip text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX captchas_expires ON captchas (expires_at);
CREATE INDEX captchas_ip ON captchas (ip, expires_at);
