/** Drag-and-drop upload with progress and cancel (upload-box.tsx); its code loads with the first one shown. */
import { createElement, Suspense } from 'react';
import type { UploadBoxProps } from './upload-box';
import { lazyPart } from './lazy-chunk';

const UploadBoxImpl = lazyPart(() => import('./upload-box'), 'UploadBox');
export const UploadBox = (props: UploadBoxProps) =>
  createElement(Suspense, { fallback: createElement('div', { className: 'upload-box', style: { minHeight: props.compact ? 120 : 168 } }) }, createElement(UploadBoxImpl, props));
