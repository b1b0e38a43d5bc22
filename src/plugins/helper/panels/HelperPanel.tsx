import { ComingSoon } from '../../../core';

/** The marker text below is how the build test tells whether this plugin was bundled. */
export function HelperPanel() {
  return <ComingSoon title="超级助手" description="超级助手：合作站点专属的运营助手。该功能正在开发中。" />;
}
