/**
 * The parse-video service (covers Kuaishou, Douyin, Xiaohongshu and 20+ platforms):
 * `GET {base}/video/share/url/parse?url=<share link>` answers `{code: 200, msg, data: {title, video_url, music_url,
 * cover_url, images}}`; a link it cannot parse gets `{code: 201, msg}`. A picture post has no video_url.
 */
import { MSG } from '../../../src/contract';
import { asRecord, firstUrl, getJson, ParseFailed, type LinkParser, type ParsedPost, type ParserConfig } from './link-parser';

export class ParseVideoParser implements LinkParser {
  readonly name = 'parsevideo';
  constructor(private readonly config: ParserConfig) {}

  async parse(link: string): Promise<ParsedPost> {
    const { status, json } = await getJson(this.config, '/video/share/url/parse', { url: link });
    if (status !== 200 || Number(json.code) !== 200) throw new ParseFailed(MSG.parseLinkExpired, `HTTP ${status}: ${String(json.msg ?? '')}`);
    const data = asRecord(json.data);
    return {
      desc: typeof data.title === 'string' ? data.title : '',
      videoUrl: firstUrl(data.video_url),
      musicUrl: firstUrl(data.music_url),
      coverUrl: firstUrl(data.cover_url),
    };
  }
}
