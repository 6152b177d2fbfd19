import { postgresUrlProblem } from '@svc/adapters';
import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { flag, type Parsed, urlWithSchemes } from './setting-schemas.js';

/** Where the embedded engines keep their files when neither `--data-dir` nor SVC_DATA_DIR says (RUNNER.md). */
export const DEFAULT_DATA_DIR = './.svc-data';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const storageVariables = {
  SVC_DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR).register(settingDocs, {
    flag: '--data-dir',
    description: 'files of the embedded engines, the mail outbox folder, generated secrets',
  }),
  DATABASE_URL: z
    .string()
    .superRefine((value, context) => {
      const problem = postgresUrlProblem(value);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .register(settingDocs, {
      defaultText: 'embedded PGlite',
      description:
        '`postgres://…`: that PostgreSQL server; `h1:5432,h2:5432` hosts with `?target_session_attrs=read-write` follow a promoted standby',
    }),
  CLICKHOUSE_URL: urlWithSchemes(['http:', 'https:']).optional().register(settingDocs, {
    defaultText: 'embedded chdb',
    description: '`http(s)://user:pass@host:8123/db`: use that ClickHouse server',
  }),
  SVC_ALLOW_EMBEDDED: flag.default(false).register(settingDocs, {
    defaultText: '`false`',
    description:
      '`true` lets production run on embedded PGlite or chdb (no `DATABASE_URL` / `CLICKHOUSE_URL`); otherwise `svc serve` refuses them',
  }),
};

/** Where the embedded engines keep their files, and the servers that replace them. */
export interface StorageSettings {
  dataDir: string;
  /** A PostgreSQL server; unset, the embedded PGlite in the data dir. */
  databaseUrl?: string | undefined;
  /** A ClickHouse server; unset, the embedded chdb in the data dir. */
  clickhouseUrl?: string | undefined;
  /** True lets a production server run on an embedded engine (see `productionRefusals`). */
  allowEmbedded: boolean;
}

export function storageSettings(raw: Parsed<typeof storageVariables>): StorageSettings {
  return {
    dataDir: raw.SVC_DATA_DIR,
    databaseUrl: raw.DATABASE_URL,
    clickhouseUrl: raw.CLICKHOUSE_URL,
    allowEmbedded: raw.SVC_ALLOW_EMBEDDED,
  };
}
