import { z } from 'zod';
import type { AttemptLimit, AttemptLimiter } from '../identity/identity.ports.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { ClientErrorRecord, ClientErrorScope } from './feedback.ports.js';
import { scrubSecrets } from './secret-scrubber.js';

/** Largest report accepted, as its JSON text (spec 4.11). */
const CLIENT_ERROR_MAX_BYTES = 32 * 1024;
/** Reports are kept 30 days (spec 4.11). */
const CLIENT_ERROR_RETENTION_DAYS = 30;
/** 10 reports a minute per account (spec 4.11). */
const CLIENT_ERROR_LIMIT: AttemptLimit = { name: 'client_error_report', points: 10, perSeconds: 60 };

/** Deprecated request fields of POST /v1/client-errors and their replacements (spec section 9). */
const CLIENT_ERROR_DEPRECATED_FIELDS = ['release', 'route', 'at'] as const;
export type ClientErrorDeprecatedField = (typeof CLIENT_ERROR_DEPRECATED_FIELDS)[number];

const text = (description: string) => z.string().optional().meta({ description });

/** Body of POST /v1/client-errors (spec 4.11, 9). */
export const ClientErrorReport = z
  .object({
    message: z.string().min(1, 'must not be empty').meta({ description: 'The error message.' }),
    stack: text('Stack trace.'),
    url: text('Dashboard URL where the error happened.'),
    user_agent: text('Browser user agent.'),
    dashboard_version: text('Dashboard build version.'),
    sampled_rate: z
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .optional()
      .meta({ description: 'Share of errors of this kind the dashboard sends, 0 to 1.' }),
    kind: text('Kind of error (for example `unhandledrejection`).'),
    name: text('Error class name.'),
    release: z
      .string()
      .optional()
      .meta({ description: 'Deprecated: use dashboard_version.', deprecated: true }),
    route: z.string().optional().meta({ description: 'Deprecated: use url.', deprecated: true }),
    at: z
      .string()
      .optional()
      .meta({ description: 'Deprecated and ignored: the server records its own time.', deprecated: true }),
  })
  .meta({ id: 'ClientErrorReport' });
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;

/** Answer of an accepted report or feedback. */
export const AcceptedReport = z.object({ id: z.string() }).meta({ id: 'AcceptedReport' });
export type AcceptedReport = z.infer<typeof AcceptedReport>;

/** Who sends a report. */
export interface Reporter {
  accountId: string;
  orgId: string;
  actor: string;
}

/** Stores scrubbed dashboard error reports, rate limited per account. */
export class ClientErrorService {
  constructor(
    private readonly deps: { uow: ScopedUnitOfWork<ClientErrorScope>; clock: Clock; limiter: AttemptLimiter },
  ) {}

  /** The deprecated fields a report uses, for the Deprecation and Sunset headers. */
  static deprecatedFieldsOf(report: ClientErrorReport): ClientErrorDeprecatedField[] {
    return CLIENT_ERROR_DEPRECATED_FIELDS.filter((field) => report[field] !== undefined);
  }

  /**
   * POST /v1/client-errors: 400 body_too_large over 32 KiB (the body-size code of spec 7), 429 rate_limited
   * past 10 a minute; `release` and `route` fill `dashboard_version` and `url` when those are absent.
   */
  async report(reporter: Reporter, report: ClientErrorReport): Promise<AcceptedReport> {
    if (Buffer.byteLength(JSON.stringify(report), 'utf8') > CLIENT_ERROR_MAX_BYTES) {
      throw new DomainError('body_too_large', 'A client error report is at most 32 KiB.');
    }
    await this.deps.limiter.consume(CLIENT_ERROR_LIMIT, reporter.accountId);
    const scrub = (value: string | undefined) => (value === undefined ? null : scrubSecrets(value));
    const now = this.deps.clock.now();
    const record: ClientErrorRecord = {
      ...reporter,
      message: scrubSecrets(report.message),
      stack: scrub(report.stack),
      url: scrub(report.url ?? report.route),
      userAgent: scrub(report.user_agent),
      dashboardVersion: scrub(report.dashboard_version ?? report.release),
      sampledRate: report.sampled_rate ?? null,
      kind: scrub(report.kind),
      name: scrub(report.name),
      createdAt: now,
    };
    const purgeBefore = new Date(now.getTime() - CLIENT_ERROR_RETENTION_DAYS * 86_400_000);
    const id = await this.deps.uow.run((tx) => tx.clientErrors.insert(record, purgeBefore));
    return { id };
  }
}
