/** Drag-and-drop upload with progress and cancel (upload-box.tsx); its code loads with the first one shown. */
import { createElement, Suspense } from 'react';
import type { UploadBoxProps } from './upload-box';
import { lazyChunk } from './lazy-chunk';

const UploadBoxImpl = lazyChunk(() => import('./upload-box').then((m) => ({ default: m.UploadBox })));
export const UploadBox = (props: UploadBoxProps) =>
  createElement(Suspense, { fallback: createElement('div', { className: 'upload-box', style: { minHeight: props.compact ? 120 : 168 } }) }, createElement(UploadBoxImpl, props));
