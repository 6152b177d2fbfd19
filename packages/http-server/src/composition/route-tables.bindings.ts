import { ColumnarQueryLog, type Settings } from '@svc/composition';
import {
  type AuditLogService,
  type ClientErrorService,
  Clock,
  CountryLookup,
  type CursorSealer,
  type DataExportService,
  type DevicePolicyService,
  type DeviceService,
  type FeedbackService,
  type LinkedIpService,
  type ListPipelineService,
  type ListReportService,
  type LogQueryService,
  type NodeService,
  type PreferencesService,
  type ProfilePolicyService,
  type ProfileService,
  type SessionService,
  Timers,
  type WebhookService,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { ApiDescription } from '../app/api-description.js';
import { Authenticator } from '../http/principal.js';
import { auditRoutes } from '../routes/audit.routes.js';
import { catalogueRoutes } from '../routes/catalogue.routes.js';
import { dataExportRoutes } from '../routes/data-export.routes.js';
import { deviceRoutes } from '../routes/device.routes.js';
import { devicePolicyRoutes } from '../routes/device-policy.routes.js';
import { feedbackRoutes } from '../routes/feedback.routes.js';
import { linkedIpRoutes } from '../routes/linked-ip.routes.js';
import { listReportRoutes } from '../routes/list-report.routes.js';
import { logStreamRoutes } from '../routes/log-stream.routes.js';
import { metaRoutes } from '../routes/meta.routes.js';
import { nodeRoutes } from '../routes/node.routes.js';
import { nodeListRoutes } from '../routes/node-list.routes.js';
import { nodeSelfRoutes } from '../routes/node-self.routes.js';
import { preferencesRoutes } from '../routes/preferences.routes.js';
import { profileRoutes } from '../routes/profile.routes.js';
import { profilePauseRoutes } from '../routes/profile-pause.routes.js';
import { profilePolicyRoutes } from '../routes/profile-policies.routes.js';
import { queryLogRoutes } from '../routes/query-log.routes.js';
import { RouteTable } from '../routes/route-table.js';
import { setupRoutes } from '../routes/setup.routes.js';
import { webhookRoutes } from '../routes/webhook.routes.js';
import { StreamSlots } from '../streams/stream-slots.js';
import { bindIdentityRouteTables } from './identity-route-tables.bindings.js';
import { bindOperatorRouteTables } from './operator-route-tables.bindings.js';
import {
  AuditLogServiceToken,
  ClientErrorServiceToken,
  CursorSealerToken,
  DataExportServiceToken,
  DevicePolicyServiceToken,
  DeviceServiceToken,
  FeedbackServiceToken,
  LinkedIpServiceToken,
  ListPipelineServiceToken,
  ListReportServiceToken,
  LogQueryServiceToken,
  NodeServiceToken,
  PreferencesServiceToken,
  ProfilePolicyServiceToken,
  ProfileServiceToken,
  SessionServiceToken,
  WebhookServiceToken,
} from './tokens.js';

/**
 * Every route table of the API server, each contributed to the container as a {@link RouteTable} over the use
 * cases it serves. The bindings' order is the order requests are matched in and the OpenAPI document lists
 * the paths in. Loaded after the use cases; resolving the tables opens the stores they need.
 */
export function routeTablesModule(
  settings: Pick<Settings, 'env' | 'http' | 'queryLogs' | 'accounts'>,
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ApiDescription>(ApiDescription).toConstantValue(new ApiDescription(settings.http.baseUrl));
    bind<RouteTable>(RouteTable).toResolvedValue(
      // Whether logs can go to the cloud store is whether the adapter family bound a cloud query log.
      (description: ApiDescription, countries: CountryLookup, columnar: ColumnarQueryLog) =>
        metaRoutes({
          settings,
          openApiYaml: () => description.openApiYaml(),
          columnarStore: columnar !== null,
          geoipAttribution: countries.attribution,
        }),
      [ApiDescription, CountryLookup, ColumnarQueryLog],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (cursors: CursorSealer, pipeline: ListPipelineService) => catalogueRoutes(cursors, pipeline),
      [CursorSealerToken, ListPipelineServiceToken],
    );
    bindIdentityRouteTables(bind, settings.http.secureCookies);
    bind<RouteTable>(RouteTable).toResolvedValue(
      (profiles: ProfileService) => profileRoutes(profiles),
      [ProfileServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (profiles: ProfileService) => profilePauseRoutes(profiles),
      [ProfileServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (policies: ProfilePolicyService) => profilePolicyRoutes(policies),
      [ProfilePolicyServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (devicePolicies: DevicePolicyService) => devicePolicyRoutes(devicePolicies),
      [DevicePolicyServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (linkedIps: LinkedIpService) => linkedIpRoutes(linkedIps),
      [LinkedIpServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (devices: DeviceService) => deviceRoutes(devices),
      [DeviceServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (queries: LogQueryService) => queryLogRoutes(queries),
      [LogQueryServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (
        queries: LogQueryService,
        profiles: ProfileService,
        sessions: SessionService,
        authenticator: Authenticator,
        clock: Clock,
        timers: Timers,
      ) =>
        logStreamRoutes({
          queries,
          profiles,
          sessions,
          authenticator,
          // The live streams this API server holds (at most 4 per account here).
          slots: new StreamSlots(),
          clock,
          timers,
          problemBase: settings.http.problemBase,
        }),
      [LogQueryServiceToken, ProfileServiceToken, SessionServiceToken, Authenticator, Clock, Timers],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (reports: ListReportService) => listReportRoutes(reports),
      [ListReportServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (webhooks: WebhookService) => webhookRoutes(webhooks),
      [WebhookServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (profiles: ProfileService) => setupRoutes(profiles, settings.http.baseUrl),
      [ProfileServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (preferences: PreferencesService) => preferencesRoutes(preferences),
      [PreferencesServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (audit: AuditLogService) => auditRoutes(audit),
      [AuditLogServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (clientErrors: ClientErrorService, feedback: FeedbackService) => feedbackRoutes(clientErrors, feedback),
      [ClientErrorServiceToken, FeedbackServiceToken],
    );
    bindOperatorRouteTables(bind);
    bind<RouteTable>(RouteTable).toResolvedValue(
      (exports: DataExportService) => dataExportRoutes(exports),
      [DataExportServiceToken],
    );
    bind<RouteTable>(RouteTable).toResolvedValue(
      (nodes: NodeService) => [
        ...nodeRoutes(nodes),
        ...nodeSelfRoutes(nodes, settings.http.baseUrl),
        ...nodeListRoutes(nodes),
      ],
      [NodeServiceToken],
    );
  });
}
