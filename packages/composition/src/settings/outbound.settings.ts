import { settingDocs } from './setting-docs.js';
import { flag, type Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const outboundVariables = {
  SVC_OUTBOUND_ALLOW_PRIVATE: flag.default(false).register(settingDocs, {
    defaultText: '`false`',
    description:
      '`true`: list redirects and webhook deliveries may reach plain http and private or loopback addresses (tests, internal hosts)',
  }),
};

/**
 * Outbound requests the server makes on its own (blocklist sources, webhook deliveries): `allowPrivate` lets
 * them reach plain http and loopback, private or reserved addresses; otherwise only https to public addresses.
 */
export interface OutboundSettings {
  allowPrivate: boolean;
}

export function outboundSettings(raw: Parsed<typeof outboundVariables>): OutboundSettings {
  return { allowPrivate: raw.SVC_OUTBOUND_ALLOW_PRIVATE };
}
