-- Pet and person pictures (part 2 §2.4, §3): the user's own (user_id) and the public AI library (user_id NULL).
-- Each picture keeps its own copy of the image and a small cover, so deleting the upload's material leaves it whole.
-- type: 1 person, 2 pet (PhotoType in the contract).
CREATE TABLE photos (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  type smallint NOT NULL,
  name text NOT NULL,
  image_key text NOT NULL,
  cover_key text NOT NULL,
  width integer NOT NULL DEFAULT 0,
  height integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX photos_owner ON photos (user_id, type, id DESC);
