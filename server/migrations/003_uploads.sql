-- Space held for uploads in flight: reserved before the bytes land, released when the upload is registered or refused.
CREATE TABLE upload_reservations (
  upload_id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  file_type text NOT NULL,
  bytes bigint NOT NULL CHECK (bytes >= 0),
  object_key text NOT NULL DEFAULT '',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upload_reservations_user ON upload_reservations (user_id);
