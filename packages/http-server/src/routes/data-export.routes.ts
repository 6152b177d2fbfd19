import { DataExportEnvelope, DataExportList, type DataExportService, PageQuery } from '@svc/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

/** Path of one export. */
const ExportPath = z.object({ id: z.uuid({ error: 'must be a uuid' }) });

const NO_STORE = { 'Cache-Control': 'no-store' };

/** GDPR data exports of the signed-in account (ROUTES.md "Sign-in and account"; spec 4.1.5, 4.13, 7). */
export function dataExportRoutes(exports: DataExportService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/me/exports',
      operationId: 'startDataExport',
      summary: 'Start a data export of the account',
      description:
        'Collects everything the service keeps about the account and its organisation that the owner may see (account, preferences, sessions, API tokens and passkeys without secrets, second-factor state, profiles with rules, lists, linked IPs, devices, list reports and nodes, the audit log, feedback) and the query logs of its profiles into one archive of JSON lines, built in the background: poll GET /v1/auth/me/exports/{id} until `ready`. One export at a time: 409 export_in_progress while another is pending. The archive is kept 7 days. Accepts Idempotency-Key.',
      tags: ['auth'],
      auth: 'session',
      idempotent: true,
      errorStatuses: [409],
      responses: {
        202: {
          description: 'The export was started (status pending).',
          schema: DataExportEnvelope,
          headers: { Location: { description: 'The export’s address.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal }) => {
        const { account } = actingSession(principal);
        const record = await exports.start(account);
        return {
          status: 202,
          body: { export: exports.view(record) },
          headers: { Location: `/v1/auth/me/exports/${record.id}` },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/me/exports',
      operationId: 'listDataExports',
      summary: 'The account’s data exports',
      tags: ['auth'],
      auth: 'session',
      request: { query: PageQuery },
      responses: { 200: { description: 'Exports, newest first.', schema: DataExportList } },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await exports.list(actingSession(principal).account.id, query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/me/exports/{id}',
      operationId: 'getDataExport',
      summary: 'One data export’s status',
      description:
        'Status `pending`, `ready` (with `download_url`), `failed` or `expired` (7 days after it was ready; the archive is gone).',
      tags: ['auth'],
      auth: 'session',
      request: { params: ExportPath },
      responses: { 200: { description: 'The export.', schema: DataExportEnvelope } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: { export: await exports.get(actingSession(principal).account.id, params.id) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/me/exports/{id}/download',
      operationId: 'downloadDataExport',
      summary: 'Download a data export',
      description:
        'The archive, offered as a file and sent as it is read from storage (never held whole in memory): JSON lines (`application/x-ndjson`), each a JSON object with a `type`. The first line (`account_data`) holds the account and everything attached to it (format `svc-account-export` version 2); each following line (`query_log`) is one stored query of one of its profiles (the columns of spec 2.11), profile by profile, newest first. 409 export_not_ready while the export is pending (or when it failed); 404 not_found once it expired, as for an export that never existed (its archive is removed).',
      tags: ['auth'],
      auth: 'session',
      request: { params: ExportPath },
      errorStatuses: [409],
      responses: {
        200: {
          description: 'The archive.',
          schema: z.string().meta({ description: 'JSON lines, one record per line.' }),
          contentType: 'application/x-ndjson',
          headers: {
            'Content-Disposition': {
              description: '`attachment; filename="svc-export-<id>.jsonl"`',
              schema: { type: 'string' },
            },
            'Content-Length': {
              description: 'The archive’s size (`size_bytes`).',
              schema: { type: 'integer' },
            },
            ETag: {
              description: 'The archive’s hex SHA-256 in quotes: it never changes once ready.',
              schema: { type: 'string' },
            },
            'Repr-Digest': {
              description: 'The archive’s SHA-256 (RFC 9530): `sha-256=:<base64>:`.',
              schema: { type: 'string' },
            },
          },
        },
      },
      handler: async ({ principal, params }) => {
        const download = await exports.download(actingSession(principal).account.id, params.id);
        return {
          status: 200,
          bytes: { length: download.sizeBytes, chunks: download.chunks },
          contentType: 'application/x-ndjson; charset=utf-8',
          headers: {
            ...NO_STORE,
            'Content-Disposition': `attachment; filename="${download.fileName}"`,
            ETag: `"${download.sha256}"`,
            'Repr-Digest': `sha-256=:${Buffer.from(download.sha256, 'hex').toString('base64')}:`,
          },
        };
      },
    }),
  ];
}
