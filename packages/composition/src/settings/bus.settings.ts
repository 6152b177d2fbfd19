import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { commaList, type Parsed, urlWithSchemes } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const busVariables = {
  NATS_URL: commaList
    .pipe(z.array(urlWithSchemes(['nats:', 'tls:'])).min(1, 'must name at least one server'))
    .transform((servers) => servers.join(','))
    .optional()
    .register(settingDocs, {
      defaultText: 'in-process bus',
      description:
        "`nats://user:pass@…`: publish profile documents and operator changes on NATS; comma-separated: one cluster's nodes",
    }),
  NATS_TLS_CA: z.string().min(1, 'must be a file path').optional().register(settingDocs, {
    defaultText: 'system CAs',
    description:
      'PEM file of the CA that signed the NATS servers’ certificates (deploy/nats/); set, the bus requires TLS',
  }),
};

/** The message bus: NATS servers, or the in-process bus when unset. */
export interface BusSettings {
  /** Comma-separated NATS servers of one cluster. */
  natsUrl?: string | undefined;
  /** NATS_TLS_CA: the CA file the NATS servers' certificates are checked against (TLS required when set). */
  natsTlsCa?: string | undefined;
}

export function busSettings(raw: Parsed<typeof busVariables>): BusSettings {
  return { natsUrl: raw.NATS_URL, natsTlsCa: raw.NATS_TLS_CA };
}
