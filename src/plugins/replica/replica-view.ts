/** Super replica's screens as data: addresses, the persona and product forms, states and labels. */
import { CopywriteType, ReplicaStatus, REPLICA_STATUS_NAMES, SCRIPT_STYLE_NAMES, SCRIPT_STYLES, type Persona, type PersonaDraft, type Product, type ReplicaVideo } from '../../contract';
import { metaLine } from '../../core';

export const INDEX_ROUTE = '/explosiveAnalysis';
export const VIDEO_ROUTE = '/explosiveAnalysis/video';
export const ACCOUNT_ROUTE = '/explosiveAnalysis/user';
export const PERSONAS_ROUTE = '/explosiveAnalysis/character';
export const PRODUCTS_ROUTE = '/explosiveAnalysis/project';

/** The four children, as the index page links them. */
export const CHILDREN = [
  { route: VIDEO_ROUTE, icon: 'video', title: '爆款视频拆解', text: '粘贴链接或上传视频，拆解钩子、结构与转化，一键仿写' },
  { route: ACCOUNT_ROUTE, icon: 'person', title: '账号定位分析', text: '粘贴账号简介与作品描述，读出定位、人群与内容支柱' },
  { route: PERSONAS_ROUTE, icon: 'id-number', title: '我的人设', text: '行业、人群、语气、卖点、口头禅与禁用词' },
  { route: PRODUCTS_ROUTE, icon: 'shopping-cart', title: '我的产品', text: '品类、价格、卖点、人群、使用场景与图片' },
] as const;

export interface FormField<K extends string> {
  key: K;
  label: string;
  placeholder: string;
  /** A multi-line box. */
  long?: boolean;
}

export const PERSONA_FIELDS: readonly FormField<keyof PersonaDraft>[] = [
  { key: 'name', label: '人设名称', placeholder: '例如：护肤闺蜜小安' },
  { key: 'industry', label: '行业', placeholder: '例如：美妆护肤' },
  { key: 'audience', label: '目标人群', placeholder: '例如：25-35 岁上班族女性' },
  { key: 'tone', label: '语气风格', placeholder: '例如：像闺蜜聊天，真诚不夸张' },
  { key: 'selling_points', label: '核心卖点', placeholder: '这个人设最值得信任的地方', long: true },
  { key: 'catchphrases', label: '口头禅', placeholder: '例如：姐妹们、真的绝了' },
  { key: 'taboo', label: '禁用词', placeholder: '绝不能出现的词，例如：最、第一' },
];

export type ProductForm = Omit<Product, 'id' | 'image_id' | 'create_time' | 'price' | 'image'> & { price: string };

export const PRODUCT_FIELDS: readonly FormField<keyof ProductForm>[] = [
  { key: 'name', label: '产品名称', placeholder: '例如：修护面霜' },
  { key: 'category', label: '品类', placeholder: '例如：护肤品' },
  { key: 'price', label: '价格（元）', placeholder: '例如：129.9' },
  { key: 'selling_points', label: '卖点', placeholder: '产品最打动人的地方', long: true },
  { key: 'audience', label: '目标人群', placeholder: '例如：干皮、熬夜党' },
  { key: 'scenes', label: '使用场景', placeholder: '例如：熬夜后、换季' },
];

export const STYLES = SCRIPT_STYLES.map((value) => ({ value, label: SCRIPT_STYLE_NAMES[value] }));

export const isOpen = (r: Pick<ReplicaVideo, 'status'>) => r.status === ReplicaStatus.Queued || r.status === ReplicaStatus.Running;
export type Intent = 'none' | 'primary' | 'success' | 'danger';
const INTENTS: Record<number, Intent> = { 1: 'none', 2: 'primary', 3: 'success', 4: 'danger' };
export const statusOf = (r: Pick<ReplicaVideo, 'status'>) => ({ text: REPLICA_STATUS_NAMES[r.status] ?? '', intent: INTENTS[r.status] ?? 'none' });
export const videoTitle = (r: Pick<ReplicaVideo, 'id' | 'title' | 'link'>) => r.title || r.link || `视频拆解 #${r.id}`;

/** 0:03 — where a beat is. */
export function clockOf(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The score's colour: 80 and up is a hit. */
export const scoreIntent = (score: number): Intent => (score >= 80 ? 'success' : score >= 60 ? 'primary' : 'none');

/** One line of a persona or product for pickers and cards. */
export const personaLine = (p: Pick<Persona, 'industry' | 'tone' | 'audience'>) => metaLine(p.industry, p.audience, p.tone);

export const WAYS = [
  { value: CopywriteType.Upload, label: '上传视频' },
  { value: CopywriteType.Link, label: '粘贴链接' },
] as const;

