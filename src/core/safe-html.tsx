import { useMemo } from 'react';
import DOMPurify from 'dompurify';

/**
 * Operator HTML (notices, footer label, agreements) goes through DOMPurify before it reaches the page:
 * scripts, event handlers and javascript: URLs are removed.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'], FORBID_ATTR: ['style'] });
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
