import type { ClientConfig } from '../shared/session';

/** Where "Contact Us", "Need help" and "Help" go unless the deployment's config.json says otherwise. */
export const DEFAULT_SUPPORT_EMAIL = 'support@tidewatch.app';
export const DEFAULT_RESELLER_PORTAL = 'https://resellers.tidewatch.app';

export const supportHref = (config?: Pick<ClientConfig, 'links'> | null) => {
  const support = config?.links?.support ?? DEFAULT_SUPPORT_EMAIL;
  return support.includes(':') ? support : `mailto:${support}`;
};

export const resellerPortalHref = (config?: Pick<ClientConfig, 'links'> | null) => config?.links?.resellerPortal ?? DEFAULT_RESELLER_PORTAL;

/** When this client was built (vite `define`); absent in a dev server, where the page load time is shown instead. */
export function buildDate(): Date {
  const stamp = typeof __BUILD_DATE__ === 'string' ? __BUILD_DATE__ : undefined;
  return stamp ? new Date(stamp) : new Date(document.lastModified);
}

declare global {
  const __BUILD_DATE__: string | undefined;
}
