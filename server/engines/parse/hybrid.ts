/**
 * The hybrid API of the widely self-hosted Douyin/TikTok download service (Douyin_TikTok_Download_API):
 * `GET {base}/api/hybrid/video_data?url=<share link>&minimal=true` answers `{code: 200, data: {type, desc,
 * cover_data: {cover}, music: {play_url}, video_data: {nwm_video_url, nwm_video_url_HQ, …}}}` for a video post
 * (`image_data` instead for a picture post); a link it cannot parse gets HTTP 400 `{code: 400, message}`.
 */
import { MSG } from '../../../src/contract';
import { asRecord, firstUrl, getJson, ParseFailed, type LinkParser, type ParsedPost, type ParserConfig } from './link-parser';

export class HybridParser implements LinkParser {
  readonly name = 'hybrid';
  constructor(private readonly config: ParserConfig) {}

  async parse(link: string): Promise<ParsedPost> {
    const { status, json } = await getJson(this.config, '/api/hybrid/video_data', { url: link, minimal: 'true' });
    if (status !== 200 || Number(json.code) !== 200) throw new ParseFailed(MSG.parseLinkExpired, `HTTP ${status}: ${String(json.message ?? json.detail ?? '')}`);
    const data = asRecord(json.data);
    const video = asRecord(data.video_data);
    const cover = asRecord(data.cover_data);
    const music = asRecord(data.music);
    return {
      desc: typeof data.desc === 'string' ? data.desc : '',
      // HQ first: the full-resolution play address when the post has one.
      videoUrl: firstUrl(video.nwm_video_url_HQ) ?? firstUrl(video.nwm_video_url),
      musicUrl: firstUrl(music.play_url) ?? firstUrl(music.playUrl),
      coverUrl: firstUrl(cover.cover) ?? firstUrl(cover.origin_cover),
    };
  }
}
