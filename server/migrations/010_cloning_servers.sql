-- Voice channels for self-hosted cloning TTS servers, off until an operator gives their address and shared folder
-- (`channel set hs --base-url … --share-dir … --enabled true`): hs is fish-speech as HeyGem / Duix.Avatar ships it,
-- kyy is GPT-SoVITS's api_v2 server. A voice's training result (the server's prepared reference audio and its
-- text) lives in voices.engine_voice like every engine's handle, so no column is added. Their upload tips are the
-- engine's own (CLONING_SERVER_UPLOAD_TIPS in the contract) until the operator sets some.
INSERT INTO channels (api, kind, name, description, version_name, credits, free_times, train_times, upload_tips, language, enabled, engine, sort) VALUES
  ('hs', 'voice', '本地克隆 fish-speech', '自建 GPU 服务器上的 fish-speech（HeyGem / Duix.Avatar 同款）：复制音色，几秒完成训练。', '1.5', 0, 0, 3,
   '', '中文、英语、日语', false, 'fishspeech', 30),
  ('kyy', 'voice', '本地克隆 GPT-SoVITS', '自建 GPU 服务器上的 GPT-SoVITS：以3-10秒参考音频零样本复制音色，即时可用。', 'v2', 0, 0, 3,
   '', '中文、英语、日语、粤语、韩语', false, 'gptsovits', 35)
ON CONFLICT DO NOTHING;
