import {
  BLOCKLIST_CATALOGUE,
  CompilerSourceList,
  compilerSources,
  ListBuildList,
  type ListPipelineService,
  type ListReportTriageService,
  listBuilds,
  TriageDecision,
  TriagedListReport,
  TriageQuery,
  TriageQueue,
} from '@svc/domain';
import { z } from 'zod';
import { operatorActor } from './operator-actor.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

const ReportPath = z.object({ id: z.uuid({ error: 'must be a list report id (uuid)' }) });

/** List-report triage and the list compiler's views (spec 3, 4.13; ROUTES.md "Operator"). */
export function listTriageRoutes(triage: ListReportTriageService, pipeline: ListPipelineService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/list-reports',
      operationId: 'listTriageQueue',
      summary: 'The list-report triage queue',
      description:
        'Every organisation’s reports, oldest triage_due_at first; `status` is open unless given (accepted or rejected for the record).',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: TriageQuery },
      responses: { 200: { description: 'Reports, oldest due first.', schema: TriageQueue } },
      handler: async ({ query }) => ({ status: 200, body: await triage.queue(query) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/admin/list-reports/{id}',
      operationId: 'decideListReport',
      summary: 'Accept or reject a list report',
      description:
        'Only an open report (else 422 naming status). The reporter is emailed the outcome and the note. An accepted report becomes a candidate for the curated guard list or the gate overrides, reviewed before any change: no list changes here. Audited as `admin.list_report_resolved`.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: ReportPath, body: TriageDecision },
      errorStatuses: [404],
      responses: { 200: { description: 'The report after the decision.', schema: TriagedListReport } },
      handler: async ({ principal, params, body, clientIp, requestId }) => ({
        status: 200,
        body: await triage.decide(params.id, body, operatorActor(principal, { clientIp, requestId })),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/admin/lists/sources',
      operationId: 'listCompilerSources',
      summary: 'The list compiler’s sources and their last fetch',
      description:
        'Each upstream source of the blocklist catalogue with its format, the lists compiled from it, its last fetch (`last_fetch`: when, ok / not_modified / failed, the HTTP status and why it failed) and its last good compilation (entries, invalid and ignored lines with the first invalid ones, digest, when its content last changed). A failing source keeps its last good version. One page.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      responses: { 200: { description: 'Sources by id.', schema: CompilerSourceList } },
      handler: async () => ({
        status: 200,
        body: compilerSources(BLOCKLIST_CATALOGUE, await pipeline.sourceStates()),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/admin/lists/versions',
      operationId: 'listListBuilds',
      summary: 'The list builds of the catalogue',
      description:
        'Each compiled list’s newest build: its version (one more for each new content; what list reports record), the SHA-256 of its artifact, its size, sources, entries and exceptions. Lists never compiled are left out. One page.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      responses: { 200: { description: 'Builds by list id.', schema: ListBuildList } },
      handler: async () => ({
        status: 200,
        body: listBuilds(BLOCKLIST_CATALOGUE, await pipeline.currentVersions()),
      }),
    }),
  ];
}
