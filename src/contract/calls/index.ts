import type { CallDef } from '../call';
import { siteCalls } from './site';
import { accountCalls } from './account';
import { adminCalls } from './admin';
import { creditsCalls } from './credits';
import { noticeCalls } from './notice';
import { guideCalls } from './guide';
import { uploadCalls } from './upload';
import { avatarsCalls } from './avatars';
import { voicesCalls } from './voices';
import { worksCalls } from './works';
import { materialCalls } from './material';
import { photoCalls } from './photo';
import { extractionCalls } from './extraction';
import { translationCalls } from './translation';
import { writingCalls } from './writing';
import { imagegenCalls } from './imagegen';
import { videogenCalls } from './videogen';
import { chatCalls } from './chat';
import { dubbingCalls } from './dubbing';
import { copywriteCalls } from './copywrite';
import { musicCalls } from './music';
import { botCalls } from './bot';
import { replicaCalls } from './replica';
import { oneclickCalls } from './oneclick';
import { helperCalls } from './helper';
import { openapiCalls } from './openapi';
import { batchCalls } from './batch';

/** The whole call catalogue, grouped by feature. */
export const API = {
  site: siteCalls,
  account: accountCalls,
  admin: adminCalls,
  credits: creditsCalls,
  notice: noticeCalls,
  guide: guideCalls,
  upload: uploadCalls,
  avatars: avatarsCalls,
  voices: voicesCalls,
  works: worksCalls,
  material: materialCalls,
  photo: photoCalls,
  extraction: extractionCalls,
  translation: translationCalls,
  writing: writingCalls,
  imagegen: imagegenCalls,
  videogen: videogenCalls,
  chat: chatCalls,
  dubbing: dubbingCalls,
  copywrite: copywriteCalls,
  music: musicCalls,
  bot: botCalls,
  replica: replicaCalls,
  oneclick: oneclickCalls,
  helper: helperCalls,
  openapi: openapiCalls,
  batch: batchCalls,
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
  audition: 'voices.audition',
  voiceConfirm: 'voices.confirm',
  changePwd: 'account.changePassword',
  cdkey: 'credits.cdkey',
  space: 'credits.space',
  spaceExpand: 'credits.spaceExpand',
  voiceEdit: 'voices.rename',
  site: 'site.info',
  notice: 'notice.list',
  theme: 'writing.theme',
  guide: 'guide.list',
  voiceChannel: 'voices.channels',
  creditsRule: 'credits.rule',
  protocol2: 'site.protocol',
  langList: 'voices.language',
  multiWorks: 'works.multi',
  textpolish: 'writing.textpolish',
  videoChannel: 'works.videoChannel',
  translateLang: 'translation.languages',
  chat: 'chat.sendMessage',
  translate: 'translation.submit',
  analysisVideo: 'replica.analyseVideo',
  generateScript: 'replica.generate',
  mimicScript: 'replica.mimic',
  topic: 'replica.topics',
  'bot.sendMessage': 'bot.sendMessage',
  'bot.typeList': 'bot.typeList',
  'bot.botList': 'bot.botList',
  'bot.messageList': 'bot.messageList',
  'bot.messageDetail': 'bot.messageDetail',
  'bot.employ': 'bot.employ',
  'music.createMusic': 'music.create',
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
  siteCalls, accountCalls, adminCalls, creditsCalls, noticeCalls, guideCalls, uploadCalls, avatarsCalls, voicesCalls, worksCalls,
  materialCalls, photoCalls, extractionCalls, translationCalls, writingCalls, imagegenCalls, videogenCalls, chatCalls, dubbingCalls, copywriteCalls, musicCalls, botCalls,
  replicaCalls, oneclickCalls, helperCalls,
  openapiCalls,
  batchCalls,
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
export * from './extraction';
export * from './translation';
export * from './writing';
export * from './imagegen';
export * from './videogen';
export * from './chat';
export * from './dubbing';
export * from './copywrite';
export * from './music';
export * from './bot';
export * from './replica';
export * from './oneclick';
export * from './helper';
export * from './openapi';
export * from './batch';
