import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { originList, type Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const dashboardVariables = {
  SVC_DASHBOARD_URL: z.url().optional().register(settingDocs, {
    defaultText: 'the base URL, `localhost` on loopback',
    description:
      '`{dashboard_url}` of emailed links; unset, `svc serve` serves the dashboard at `/` on its own origin',
  }),
  SVC_DASHBOARD_ORIGINS: originList.optional().register(settingDocs, {
    defaultText: 'origin of the dashboard URL (on loopback: both names)',
    description: 'comma-separated dashboard origins (CORS, CSRF)',
  }),
  SVC_SIGNUP_ORIGINS: originList.optional().register(settingDocs, {
    defaultText: 'the dashboard origins',
    description: 'exact origins allowed on the signup surfaces',
  }),
  SVC_WEBAUTHN_RP_ID: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'host of the dashboard URL (`localhost` on loopback)',
    description: 'WebAuthn relying-party id of passkeys',
  }),
};

/** The settings of the dashboard's address as given (unset ones are derived). */
export interface DashboardConfiguration {
  url: string | undefined;
  origins: string[] | undefined;
  signupOrigins: string[] | undefined;
  webauthnRpId: string | undefined;
}

/** The dashboard: its address, the origins allowed to call the API from it, and its passkeys' relying party. */
export interface DashboardSettings {
  /** `{dashboard_url}` of emailed links: SVC_DASHBOARD_URL, or the base URL (`localhost` on loopback) when svc serves the dashboard. */
  url: string;
  /** Origins of the dashboard (CORS, CSRF). */
  origins: string[];
  /** Exact origins allowed on the signup surfaces. */
  signupOrigins: string[];
  webauthnRpId: string;
  /**
   * True when SVC_DASHBOARD_URL is unset: `svc serve` then serves the built dashboard at `/` on its own origin,
   * and the dashboard settings follow the base URL (the bound port's, when PORT is 0).
   */
  servedBySvc: boolean;
  /** The dashboard settings as configured, from which the derived ones are worked out again once bound. */
  configured: DashboardConfiguration;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A loopback URL with `localhost` as its host (the path kept, no trailing slash added). */
function onLocalhost(loopbackUrl: string): string {
  const url = new URL(loopbackUrl);
  url.hostname = 'localhost';
  return url.pathname === '/' && !loopbackUrl.endsWith('/') ? url.origin : url.href;
}

/**
 * The dashboard's address, origins and WebAuthn relying party: as configured, else derived from the base
 * URL. A dashboard served by svc itself on loopback answers at both `127.0.0.1` and `localhost` (either may be
 * typed), and its relying party is `localhost`, since WebAuthn refuses an IP address as one; so its address,
 * the one emailed links lead to, is the `localhost` one, where passkeys work too.
 */
export function dashboardSettings(configured: DashboardConfiguration, baseUrl: string): DashboardSettings {
  const dashboardUrl = configured.url ?? baseUrl;
  const url = new URL(dashboardUrl);
  const loopbackAliases =
    configured.url === undefined && LOOPBACK_HOSTS.has(url.hostname)
      ? ['127.0.0.1', 'localhost'].map(
          (host) => `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`,
        )
      : [];
  const origins = configured.origins ?? [...new Set([url.origin, ...loopbackAliases])];
  return {
    url: loopbackAliases.length > 0 ? onLocalhost(dashboardUrl) : dashboardUrl,
    origins,
    signupOrigins: configured.signupOrigins ?? origins,
    webauthnRpId:
      configured.webauthnRpId ??
      (loopbackAliases.length > 0 ? 'localhost' : url.hostname.replace(/^\[|\]$/g, '')),
    servedBySvc: configured.url === undefined,
    configured,
  };
}

/** The dashboard section as configured, derived from `baseUrl` where unset. */
export function dashboardSection(raw: Parsed<typeof dashboardVariables>, baseUrl: string): DashboardSettings {
  return dashboardSettings(
    {
      url: raw.SVC_DASHBOARD_URL,
      origins: raw.SVC_DASHBOARD_ORIGINS,
      signupOrigins: raw.SVC_SIGNUP_ORIGINS,
      webauthnRpId: raw.SVC_WEBAUTHN_RP_ID,
    },
    baseUrl,
  );
}
