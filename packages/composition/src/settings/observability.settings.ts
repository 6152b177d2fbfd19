import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { flag, type Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const observabilityVariables = {
  SVC_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .register(settingDocs, {
      description: 'level of the structured JSON logs on stdout (pino)',
    }),
  SVC_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().register(settingDocs, {
    defaultText: 'unset (`/metrics` open; production refuses)',
    description:
      'at least 16 characters: `GET /metrics` needs `Authorization: Bearer <token>`; required in production unless metrics are off',
  }),
  SVC_METRICS_ENABLED: flag.default(true).register(settingDocs, {
    defaultText: '`true`',
    description:
      '`false` turns `GET /metrics` off (404), so a production server no one scrapes needs no token',
  }),
};

/** Logs and metrics of the server. */
export interface ObservabilitySettings {
  logLevel: Parsed<typeof observabilityVariables>['SVC_LOG_LEVEL'];
  /** Bearer token that GET /metrics demands; unset leaves /metrics open (development only). */
  metricsToken: string | undefined;
  /** False turns GET /metrics off; in production a server with metrics on needs `metricsToken` to start. */
  metricsEnabled: boolean;
}

export function observabilitySettings(raw: Parsed<typeof observabilityVariables>): ObservabilitySettings {
  return {
    logLevel: raw.SVC_LOG_LEVEL,
    metricsToken: raw.SVC_METRICS_TOKEN,
    metricsEnabled: raw.SVC_METRICS_ENABLED,
  };
}
