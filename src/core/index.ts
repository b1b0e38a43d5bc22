export * from './tokens';
export * from './plugin';
export * from './container';
export * from './react';
export { ApiCallError } from './api-client';
export { parseHash, formatHref } from './navigation';
export { uploadKey } from './upload-service';
export { ComingSoon } from './coming-soon';
import { lazy } from 'react';
/** Sanitized operator HTML; DOMPurify loads with the first panel that shows some. */
export const SafeHtml = lazy(() => import('./safe-html').then((m) => ({ default: m.SafeHtml })));
