/**
 * The server's features, in registration order: the server-side twin of plugins.manifest.json.
 * Adding a feature means adding its module here; app.ts registers each and gives every job to its handler.
 */
import type { FeatureModule } from '../app-context';
import { siteFeature } from './site';
import { accountFeature } from './account';
import { adminFeature } from './admin';
import { creditsFeature } from './credits';
import { noticeFeature } from './notice';
import { guideFeature } from './guide';
import { mediaFeature } from './media';
import { uploadFeature } from './upload';
import { avatarsFeature } from './avatars';
import { worksFeature } from './works';
import { materialFeature } from './material';
import { voicesFeature } from './voices';
import { writingFeature } from './writing';
import { chatFeature } from './chat';
import { photoFeature } from './photo';
import { extractionFeature } from './extraction';
import { imagegenFeature } from './imagegen';
import { videogenFeature } from './videogen';
import { translationFeature } from './translation';
import { dubbingFeature } from './dubbing';
import { copywriteFeature } from './copywrite';
import { musicFeature } from './music';
import { botFeature } from './bot';
import { replicaFeature } from './replica';
import { oneclickFeature } from './oneclick';
import { helperFeature } from './helper';
import { openapiFeature } from './openapi';
import { batchFeature } from './batch';

export const FEATURES: readonly FeatureModule[] = [
  siteFeature, accountFeature, adminFeature, creditsFeature, noticeFeature, guideFeature, mediaFeature, uploadFeature,
  avatarsFeature, worksFeature, materialFeature, voicesFeature, writingFeature, chatFeature, photoFeature,
  extractionFeature,
  imagegenFeature,
  videogenFeature,
  translationFeature,
  dubbingFeature,
  copywriteFeature,
  musicFeature,
  botFeature,
  replicaFeature,
  oneclickFeature,
  helperFeature,
  openapiFeature,
  batchFeature,
];
