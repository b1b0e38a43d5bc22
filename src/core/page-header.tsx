import type { ReactNode } from 'react';
import { Icon, Tag, type IconName } from '@blueprintjs/core';
import './tool-card.css';

export interface PageHeaderProps {
  icon: IconName;
  title: string;
  subtitle: string;
  /** More classes on the header (a page's own spacing). */
  className?: string;
  /** The right side: a price, the page's main button. */
  children?: ReactNode;
}

/**
 * A tool screen's page (copy extraction, super replica): it scrolls as a whole with its column centred
 * (`<prefix>-page`, `<prefix>-inner`); its head and form, then its main part beside its side list (`<prefix>-body`).
 * Each screen keeps its own classes and styles under its prefix.
 */
export function ToolPage({ prefix, testId, children, main, side }: { prefix: string; testId: string; children: ReactNode; main: ReactNode; side: ReactNode }) {
  return (
    <div className={`${prefix}-page`} data-testid={testId}>
      <div className={`${prefix}-inner`}>
        {children}
        <div className={`${prefix}-body`}>
          {main}
          {side}
        </div>
      </div>
    </div>
  );
}

/** The price a paid tool states in its head: today's free uses while there are any, then what each use costs. */
export function PriceTags({ free, credits, freeTestId }: { free: number; credits: number; freeTestId: string }) {
  return (
    <>
      {free > 0 && (
        <Tag intent="success" round size="large" icon="star" data-testid={freeTestId}>
          今日免费 {free} 次
        </Tag>
      )}
      <Tag minimal round size="large" icon="dollar">
        每次 {credits} 积分
      </Tag>
    </>
  );
}

/** A tool page's head: its icon and title, a line saying what it does, and what the page puts on the right. */
export function PageHeader({ icon, title, subtitle, className, children }: PageHeaderProps) {
  return (
    <header className={`page-head ${className ?? ''}`.trim()}>
      <style href="core-page-header" precedence="medium">
        {PAGE_HEADER_CSS}
      </style>
      <div className="page-head-text">
        <h2 className="page-title">
          <Icon icon={icon} size={20} /> {title}
        </h2>
        <p className="page-subtitle">{subtitle}</p>
      </div>
      {children}
    </header>
  );
}

const PAGE_HEADER_CSS = `
.page-head { display: flex; align-items: center; justify-content: space-between; gap: 12px 16px; flex-wrap: wrap; margin-bottom: 16px; }
.page-head-text { min-width: 0; }
.page-title { margin: 0; font-size: 20px; font-weight: 700; line-height: 1.3; color: var(--text); display: flex; align-items: center; gap: 8px; }
.page-title .bp6-icon { color: var(--accent); }
.page-subtitle { margin: 4px 0 0; font-size: 13px; color: var(--text-muted); }
`;
