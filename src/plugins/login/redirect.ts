import { HOME_ROUTE } from '../../contract';

/** Only in-app paths are followed after login (no `//host` or `scheme:` open redirects). */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || /[\\:]/.test(target.split('?')[0]!)) return HOME_ROUTE;
  if (target.startsWith('/login')) return HOME_ROUTE;
  return target;
}
