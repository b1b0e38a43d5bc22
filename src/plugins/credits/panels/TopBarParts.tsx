import type { ReactNode } from 'react';
import { Button, Icon, Popover, Spinner, type IconName, type PopoverProps } from '@blueprintjs/core';

/** A top-bar button: icon always (with an optional count badge), text label from tablet width up (credits.css hides it on phones). */
export function TopButton({ icon, label, testId, ariaLabel, className, badge }: { icon: IconName; label?: ReactNode; testId: string; ariaLabel: string; className?: string; badge?: string }) {
  return (
    <Button
      variant="minimal"
      icon={
        <span className="credits-top-icon">
          <Icon icon={icon} />
          {badge && <span className="credits-badge" data-testid={`${testId}-badge`}>{badge}</span>}
        </span>
      }
      className={`credits-top-button${className ? ` ${className}` : ''}`}
      aria-label={ariaLabel}
      data-testid={testId}
      text={label ? <span className="credits-top-label">{label}</span> : undefined}
    />
  );
}

/** Popovers keep 8 px from the screen edges (phones). */
const MODIFIERS = { preventOverflow: { options: { padding: 8 } } };

export const POP_LOADING = (
  <div className="credits-pop-loading">
    <Spinner size={20} />
  </div>
);

/** A credits page's section while its figures load. */
export const SECTION_LOADING = (
  <div className="credits-loading">
    <Spinner size={24} />
  </div>
);

/** A top-bar item's popover: below its button, aligned to the right edge, clear of the screen edges. */
export function TopPopover(props: PopoverProps) {
  return <Popover placement="bottom-end" modifiers={MODIFIERS} {...props} />;
}

export function Inline({ children, icon = 'info-sign' }: { children: ReactNode; icon?: IconName }) {
  return (
    <div className="credits-inline-note">
      <Icon icon={icon} size={14} />
      <span>{children}</span>
    </div>
  );
}
