/**
 * The hybrid API of the widely self-hosted Douyin/TikTok download service (Douyin_TikTok_Download_API):
 * `GET {base}/api/hybrid/video_data?url=<share link>&minimal=true` answers `{code: 200, data: {type, desc,
 * cover_data: {cover}, music: {play_url}, video_data: {nwm_video_url, nwm_video_url_HQ, …}}}` for a video post
 * (`image_data` instead for a picture post); a link it cannot parse gets HTTP 400 `{code: 400, message}`.
 *
 * Profiles, through the same service's per-platform web routes (every answer `{code: 200, data}`):
 * - Douyin: `/api/douyin/web/get_sec_user_id?url=` → data is the account's sec_user_id;
 *   `/api/douyin/web/handler_user_profile?sec_user_id=` → `data.user {nickname, signature, follower_count}`;
 *   `/api/douyin/web/fetch_user_post_videos?sec_user_id=&max_cursor=0&count=` → `data.aweme_list [{desc, statistics: {digg_count}}]`.
 * - TikTok: `/api/tiktok/web/get_sec_user_id?url=` → the secUid; `/api/tiktok/web/fetch_user_profile?secUid=` →
 *   `data.userInfo {user: {nickname, signature}, stats: {followerCount}}`; `/api/tiktok/web/fetch_user_post?secUid=&cursor=0&count=`
 *   → `data.itemList [{desc, stats: {diggCount}}]`.
 */
import { MSG } from '../../../src/contract';
import { asCount, asRecord, firstUrl, getJson, ParseFailed, type LinkParser, type ParsedPost, type ParsedProfile, type ParserConfig } from './link-parser';

/** Posts read from a profile: enough to see what the account's hits share. */
const PROFILE_POSTS = 20;

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

  async readProfile(link: string): Promise<ParsedProfile> {
    const tiktok = /tiktok\.com/i.test(new URL(link).hostname);
    const platform = tiktok ? 'tiktok' : 'douyin';
    const secId = await this.data(`/api/${platform}/web/get_sec_user_id`, { url: link });
    if (typeof secId !== 'string' || !secId) throw new ParseFailed(MSG.parseLinkExpired, 'no sec_user_id');
    if (tiktok) {
      const info = asRecord(asRecord(await this.data('/api/tiktok/web/fetch_user_profile', { secUid: secId })).userInfo);
      const user = asRecord(info.user);
      const posts = asRecord(await this.data('/api/tiktok/web/fetch_user_post', { secUid: secId, cursor: '0', count: String(PROFILE_POSTS) })).itemList;
      return profileOf(user, asRecord(info.stats).followerCount, posts, (p) => asRecord(p.stats).diggCount);
    }
    const user = asRecord(asRecord(await this.data('/api/douyin/web/handler_user_profile', { sec_user_id: secId })).user);
    const posts = asRecord(await this.data('/api/douyin/web/fetch_user_post_videos', { sec_user_id: secId, max_cursor: '0', count: String(PROFILE_POSTS) })).aweme_list;
    return profileOf(user, user.follower_count, posts, (p) => asRecord(p.statistics).digg_count);
  }

  /** The `data` of a `{code: 200, data}` answer, or the user's reason why there is none. */
  private async data(path: string, params: Record<string, string>): Promise<unknown> {
    const { status, json } = await getJson(this.config, path, params);
    if (status !== 200 || Number(json.code) !== 200) throw new ParseFailed(MSG.parseLinkExpired, `HTTP ${status} at ${path}`);
    return json.data;
  }
}

function profileOf(user: Record<string, unknown>, followers: unknown, posts: unknown, likesOf: (post: Record<string, unknown>) => unknown): ParsedProfile {
  const nickname = typeof user.nickname === 'string' ? user.nickname : '';
  if (!nickname) throw new ParseFailed(MSG.parseBadReply, 'profile without a nickname');
  return {
    nickname,
    signature: typeof user.signature === 'string' ? user.signature : '',
    followers: asCount(followers),
    posts: (Array.isArray(posts) ? posts : []).map(asRecord).map((p) => ({ desc: typeof p.desc === 'string' ? p.desc : '', likes: asCount(likesOf(p)) })).filter((p) => p.desc),
  };
}
