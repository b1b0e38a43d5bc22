import type { CallDef } from '../call';
import { siteCalls } from './site';
import { accountCalls } from './account';
import { adminCalls } from './admin';
import { creditsCalls } from './credits';
import { noticeCalls } from './notice';
import { guideCalls } from './guide';
import { uploadCalls } from './upload';
import { avatarCalls } from './avatars';
import { voiceCalls } from './voices';
import { worksCalls } from './works';
import { materialCalls } from './material';
import { photoCalls } from './photo';
import { analyseCalls } from './analyse';
import { writingCalls } from './writing';
import { generateCalls } from './generate';
import { chatCalls } from './chat';
import { moreCalls } from './more';
import { dubbingCalls } from './dubbing';

/** The whole call catalogue, grouped by feature. */
export const API = {
  site: siteCalls,
  account: accountCalls,
  admin: adminCalls,
  credits: creditsCalls,
  notice: noticeCalls,
  guide: guideCalls,
  upload: uploadCalls,
  avatar: avatarCalls,
  voice: voiceCalls,
  works: worksCalls,
  material: materialCalls,
  photo: photoCalls,
  analyse: analyseCalls,
  writing: writingCalls,
  generate: generateCalls,
  chat: chatCalls,
  more: moreCalls,
  dubbing: dubbingCalls,
} as const;

export const ALL_CALLS: readonly CallDef[] = Object.values(API).flatMap((group) => Object.values(group) as CallDef[]);

/**
 * Calls the specification names without a path (part 1 §7, part 2 §7 "listed by name only"), mapped to the entry that
 * implements each. Keys are the spec's names; bot and music calls are prefixed with their family.
 */
export const SPEC_NAMES = {
  login: 'account.login',
  credits: 'account.credits',
  creditsLog: 'credits.log',
  audition: 'voice.audition',
  voiceConfirm: 'voice.confirm',
  changePwd: 'account.changePassword',
  cdkey: 'credits.cdkey',
  space: 'credits.space',
  spaceExpand: 'credits.spaceExpand',
  voiceEdit: 'voice.rename',
  site: 'site.info',
  notice: 'notice.list',
  theme: 'writing.theme',
  guide: 'guide.list',
  voiceChannel: 'voice.channels',
  creditsRule: 'credits.rule',
  protocol2: 'site.protocol',
  langList: 'voice.language',
  multiWorks: 'works.multi',
  textpolish: 'writing.textpolish',
  videoChannel: 'works.videoChannel',
  translateLang: 'works.translateLang',
  chat: 'chat.sendMessage',
  translate: 'works.translateSubmit',
  analysisVideo: 'more.cozeAnalysisVideo',
  generateScript: 'more.cozeGenerateScript',
  mimicScript: 'more.cozeMimicScript',
  topic: 'more.cozeTopic',
  'bot.sendMessage': 'more.botSendMessage',
  'bot.typeList': 'more.botTypeList',
  'bot.botList': 'more.botList',
  'bot.messageList': 'more.botMessageList',
  'bot.messageDetail': 'more.botMessageDetail',
  'bot.employ': 'more.botEmploy',
  'music.createMusic': 'more.musicCreate',
} as const satisfies Record<string, string>;
export type SpecName = keyof typeof SPEC_NAMES;

/** Fails fast on a duplicate id or a duplicate method+path: each call exists once. */
export function assertCatalogueUnique(calls: readonly CallDef[] = ALL_CALLS): void {
  const ids = new Set<string>();
  const routes = new Set<string>();
  for (const call of calls) {
    if (ids.has(call.id)) throw new Error(`duplicate call id ${call.id}`);
    const key = `${call.method} ${call.path}`;
    if (routes.has(key)) throw new Error(`duplicate call route ${key}`);
    ids.add(call.id);
    routes.add(key);
  }
}

export {
  siteCalls, accountCalls, adminCalls, creditsCalls, noticeCalls, guideCalls, uploadCalls, avatarCalls, voiceCalls, worksCalls,
  materialCalls, photoCalls, analyseCalls, writingCalls, generateCalls, chatCalls, moreCalls, dubbingCalls,
};
export * from './site';
export * from './account';
export * from './admin';
export * from './fields';
export * from './credits';
export * from './notice';
export * from './guide';
export * from './upload';
export * from './avatars';
export * from './voices';
export * from './works';
export * from './material';
export * from './photo';
export * from './analyse';
export * from './writing';
export * from './generate';
export * from './chat';
export * from './more';
export * from './dubbing';
