-- The offline lip-sync engine: what the face analysis of each avatar found, and the channel that uses it.
-- faces_key: the face-track object (landmarks per frame); face_note: '' not analysed yet, 'ok' animatable,
-- otherwise why the mouth is left as filmed (shown on the works that use it).
ALTER TABLE avatars ADD COLUMN faces_key text NOT NULL DEFAULT '';
ALTER TABLE avatars ADD COLUMN face_note text NOT NULL DEFAULT '';

INSERT INTO channels (api, kind, name, description, version_name, credits, enabled, engine, sort) VALUES
  ('lip', 'video', '本地口型', '本机离线口型同步：嘴部随台词的声音开合，是在本机计算的近似效果，细节不如GPU深度训练；数字人需正脸出镜，未检测到正脸时按原视频循环。', '1.5', 2, true, 'lipsync', 5);
