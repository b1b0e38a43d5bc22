/**
 * The routing table of both specification documents (hash routing; / redirects to /home).
 * Plugins claim routes by path; a route no plugin in this build claims shows the 即将上线 panel.
 */
export type NavSection = 'function' | 'video' | 'other';

export const NAV_SECTIONS: { id: NavSection; label: string }[] = [
  { id: 'function', label: '功能' },
  { id: 'video', label: '视频' },
  { id: 'other', label: '其他' },
];

export interface RouteDef {
  path: string;
  title: string;
  /** Blueprint icon name for nav and tabs. */
  icon: string;
  /** Present when the route has an entry in the left nav; `id` is what the nav stores in localStorage. */
  nav?: { section: NavSection; id: string; order: number };
  /** Outside the workbench layout (login, protocol). */
  standalone?: boolean;
  /** Shown only on the helper hosts / only on the other hosts (plugins.manifest.json). */
  hostRule?: 'helper' | 'employee';
  /** Query parameters the route understands (documentation and palette). */
  query?: string[];
}

const r = (path: string, title: string, icon: string, extra: Partial<RouteDef> = {}): RouteDef => ({ path, title, icon, ...extra });
const nav = (section: NavSection, order: number, id?: string) => ({ nav: { section, order, id: id ?? '' } });

/** ours (issue 34): the key page, which the account menu and the palette open. */
export const API_KEYS_ROUTE = '/apiKeys';

const TABLE: RouteDef[] = [
  r('/home', '首页', 'home', nav('function', 1)),
  r('/create', '开始创作', 'video', { ...nav('function', 2), query: ['id', 'hs', 'source', 'origin', 'audioId', 'type'] }),
  r('/batch', '批量创作', 'th', { ...nav('function', 2), query: ['id'] }),
  r('/multiples', '多场景创作', 'layers', nav('function', 3)),
  r('/store', '创作商店', 'shop', nav('function', 4)),
  r('/explosiveAnalysis', '超级复刻', 'duplicate', nav('function', 5)),
  r('/employee', '超级员工', 'people', { ...nav('function', 6), hostRule: 'employee' }),
  r('/helper/index', '超级助手', 'predictive-analysis', { ...nav('function', 6), hostRule: 'helper' }),
  r('/cozeVideo', '一键成片', 'film', nav('function', 7)),
  r('/profile', '我的数字人', 'person', nav('video', 1)),
  r('/gProfile', '公共数字人', 'people', nav('video', 2)),
  r('/clone', '声音克隆', 'volume-up', { ...nav('video', 3), query: ['id'] }),
  r('/works', '我的作品', 'media', { ...nav('video', 4), query: ['type1', 'type2'] }),
  r('/material/index', '我的素材', 'folder-open', nav('video', 5)),
  r('/consum', '消费中心', 'dollar', nav('other', 1)),
  r('/moreCredits', '积分明细', 'th-list', nav('other', 2)),
  r('/use', '使用教程', 'learning', nav('other', 3)),

  r('/pet', '宠物库', 'heart', { query: ['type'] }),
  r('/pet/establish', '创建宠物视频', 'heart', { query: ['id', 'source'] }),
  r('/establishPet', '创建宠物视频', 'heart', { query: ['id', 'source'] }),
  r('/voice', '声音样本', 'music'),
  r('/store/extraction', '视频提取', 'import'),
  r('/store/audioExtraction', '音频提取', 'music'),
  r('/store/sea', '出海视频', 'translate'),
  r('/store/imageSpeak', '照片说话', 'mugshot', { query: ['type'] }),
  r('/store/characters', '创建照片说话', 'mugshot', { query: ['id', 'source', 'sc'] }),
  r('/store/wsImage', '文生图', 'media'),
  r('/store/wsVideo', '文生视频', 'mobile-video'),
  r('/store/tsVideo', '图生视频', 'video'),
  r('/store/aiChat', '文案火花', 'chat'),
  r('/explosiveAnalysis/video', '超级复刻·视频', 'duplicate'),
  r('/explosiveAnalysis/user', '超级复刻·账号', 'duplicate'),
  r('/explosiveAnalysis/character', '我的人设', 'duplicate'),
  r('/explosiveAnalysis/project', '我的产品', 'duplicate'),
  r('/employee/talking', '超级员工·对话', 'people', { hostRule: 'employee' }),
  r('/helper/operation', '超级助手·运营', 'predictive-analysis', { hostRule: 'helper' }),
  r('/helper/asyncOperation', '超级助手·任务', 'predictive-analysis', { hostRule: 'helper' }),
  r('/copywrite/index', '提取文案', 'document'),
  r('/store/copywrite/trace', '文案溯源', 'document'),
  r('/store/music/index', 'AI音乐', 'music'),
  r('/cozeVideo/editVideo', '一键成片·编辑', 'film', { query: ['id'] }),
  r('/cozeVideo/history', '一键成片·历史', 'film'),
  r('/store/dubbing/index', '配音', 'volume-up'),
  // ours (issue 34): reached from the account menu and the palette.
  r(API_KEYS_ROUTE, 'API 密钥', 'key'),

  r('/login', '登录', 'log-in', { standalone: true, query: ['state', 'redirectUrl'] }),
  r('/protocol', '协议', 'document', { standalone: true, query: ['type'] }),
];

// Nav ids default to the path without slashes (stable and readable in localStorage).
export const ROUTES: readonly RouteDef[] = TABLE.map((route) =>
  route.nav && !route.nav.id ? { ...route, nav: { ...route.nav, id: route.path.replace(/^\//, '').replace(/\//g, '.') } } : route,
);

export const HOME_ROUTE = '/home';
export const LOGIN_ROUTE = '/login';

/** Some spec paths are written without the leading slash (store/copywrite/trace, store/music/index). */
export function normalizePath(path: string): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

export function findRoute(path: string): RouteDef | undefined {
  const p = normalizePath(path);
  return ROUTES.find((route) => route.path === p);
}

/** Local-storage key of the text /create?type=fk puts in its editor (the tools that send a script there write it). */
export const CREATE_TEXT_KEY = 'createText';
