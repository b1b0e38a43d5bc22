/**
 * The creation store's launcher (part 2 §1): two banners and four sections of tools. Titles come from the routing
 * table (findRoute), so a route renamed there is renamed here; only the icon and the one-line pitch live here.
 */
import { findRoute } from '../../contract';

export interface StoreTool {
  /** Route path; absent for a card that is not available yet. */
  path?: string;
  title: string;
  icon: string;
  description: string;
  /** No route exists for it yet: it only says 即将上线 when clicked. (Cards with a route carry the badge while their screen is not built.) */
  comingSoon?: boolean;
}

export interface StoreSection {
  id: string;
  title: string;
  icon: string;
  tools: StoreTool[];
}

export interface StoreBanner {
  path: string;
  title: string;
  description: string;
  icon: string;
  tone: 'warm' | 'cool';
}

function routeTitle(path: string): string {
  const route = findRoute(path);
  if (!route) throw new Error(`store: no route ${path} in the routing table`);
  return route.title;
}

const tool = (path: string, icon: string, description: string): StoreTool => ({ path: findRoute(path)!.path, title: routeTitle(path), icon, description });

export const STORE_BANNERS: StoreBanner[] = [
  { path: '/pet', title: '宠物视频', description: '上传一张宠物照片，让毛孩子开口说话', icon: 'heart', tone: 'warm' },
  { path: '/store/imageSpeak', title: routeTitle('/store/imageSpeak'), description: '一张人物照片配上文案，生成会说话的视频', icon: 'mugshot', tone: 'cool' },
];

const section = (id: string, title: string, icon: string, tools: StoreTool[]): StoreSection => ({ id, title, icon, tools });

export const STORE_SECTIONS: StoreSection[] = [
  section('copy', '爆款文案', 'lightbulb', [
    tool('/store/aiChat', 'chat', '与 AI 对话，激发爆款口播文案灵感'),
    tool('/copywrite/index', 'clipboard', '粘贴视频链接，一键提取口播文案'),
    { title: '专属文案', icon: 'edit', description: '按你的行业与人设，定制专属文案', comingSoon: true },
  ]),
  section('aigc', 'AI图片/视频', 'media', [
    tool('/store/wsImage', 'media', '输入一段描述，生成高清创意图片'),
    tool('/store/wsVideo', 'mobile-video', '一句话描述画面，生成短视频片段'),
    tool('/store/tsVideo', 'film', '上传一张图片，让画面动起来'),
  ]),
  section('extract', '提取文件', 'import', [
    tool('/store/extraction', 'import', '解析短视频链接，保存无水印视频'),
    tool('/store/audioExtraction', 'waves', '从视频链接或本地视频中提取音频'),
    tool('/store/sea', 'globe-network', '视频翻译成多国语言，可选口型同步'),
  ]),
  section('audio', '音频处理', 'volume-up', [tool('/store/dubbing/index', 'microphone', '输入文字，多种音色专业配音'), tool('/store/music/index', 'music', 'AI 作词作曲，生成原创音乐')]),
];
