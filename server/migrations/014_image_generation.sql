-- Text to image (part 2 §2.8, §3, §4): a generation record per submit. status: 1 in progress, 3 success, 4 failed
-- (GenerateStatus in the contract). `asked` images are paid for at submit (spend_entry_id); the job stores what the
-- engine made as the user's own objects (image_keys, counted in their space) and refunds the images not made.
CREATE TABLE image_generations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status smallint NOT NULL,
  prompt text NOT NULL,
  ratio text NOT NULL,
  asked smallint NOT NULL,
  reference_key text NOT NULL DEFAULT '',
  image_keys text[] NOT NULL DEFAULT '{}',
  spend_entry_id integer,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX image_generations_user ON image_generations (user_id, id DESC);

-- Suggested prompts (GET /api/user/imagePrompt); operators add them with `npm run admin -- image prompt add`.
CREATE TABLE image_prompts (
  id serial PRIMARY KEY,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO image_prompts (content) VALUES
  ('清晨的江南水乡，薄雾笼罩石桥与乌篷船，水墨风格，柔和光线'),
  ('一只戴着宇航员头盔的橘猫漂浮在星空中，背景是蓝色星云，插画风格'),
  ('赛博朋克风格的城市夜景，霓虹灯倒映在雨后的街道上，电影感构图'),
  ('极简风格的产品海报：一杯冒着热气的咖啡放在木桌上，晨光从窗外洒入'),
  ('国风少女身穿汉服站在盛开的桃花树下，花瓣飘落，精致细腻的工笔画'),
  ('雪山脚下的湖泊与木屋，湖面如镜倒映星空，超高清摄影'),
  ('可爱的3D卡通小熊在烘焙蛋糕，暖色调，皮克斯风格'),
  ('未来感的科技发布会舞台，蓝紫色灯光，大屏幕上显示数字人形象');

-- Copy chat (issue 13's leftover): a streaming answer saves what it has and its heartbeat every few seconds, so an
-- answer left streaming by a crashed process is found (no heartbeat for a while) and closed with what it had, refunded.
ALTER TABLE chat_messages ADD COLUMN stream_heartbeat_at timestamptz;
