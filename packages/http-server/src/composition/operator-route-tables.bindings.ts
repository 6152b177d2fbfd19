import {
  type AccountDeletionService,
  ApiTokenInvalidation,
  IdentityStore,
  type ListPipelineService,
  type ListReportTriageService,
  type OperatorBlockService,
  type OperatorViewService,
  type ProfileSuspensionService,
  type SourceBlockService,
} from '@svc/domain';
import type { ContainerModuleLoadOptions } from 'inversify';
import { accountDeletionOnBehalfRoutes } from '../routes/account-deletion-on-behalf.routes.js';
import { listTriageRoutes } from '../routes/list-triage.routes.js';
import { operatorBlockRoutes } from '../routes/operator-block.routes.js';
import { operatorViewRoutes } from '../routes/operator-views.routes.js';
import { profileSuspensionRoutes } from '../routes/profile-suspension.routes.js';
import { RouteTable } from '../routes/route-table.js';
import { sourceBlockRoutes } from '../routes/source-block.routes.js';
import {
  AccountDeletionServiceToken,
  ListPipelineServiceToken,
  ListReportTriageServiceToken,
  OperatorBlockServiceToken,
  OperatorViewServiceToken,
  ProfileSuspensionServiceToken,
  SourceBlockServiceToken,
} from './tokens.js';

/** The operator route tables (spec 4.10; ROUTES.md "Operator"), contributed in this order. */
export function bindOperatorRouteTables(bind: ContainerModuleLoadOptions['bind']): void {
  bind<RouteTable>(RouteTable).toResolvedValue(
    (blocks: OperatorBlockService) => operatorBlockRoutes(blocks),
    [OperatorBlockServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (sources: SourceBlockService) => sourceBlockRoutes(sources),
    [SourceBlockServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (suspensions: ProfileSuspensionService) => profileSuspensionRoutes(suspensions),
    [ProfileSuspensionServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (triage: ListReportTriageService, pipeline: ListPipelineService) => listTriageRoutes(triage, pipeline),
    [ListReportTriageServiceToken, ListPipelineServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (views: OperatorViewService) => operatorViewRoutes(views),
    [OperatorViewServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (deletion: AccountDeletionService, identity: IdentityStore, tokens: ApiTokenInvalidation) =>
      accountDeletionOnBehalfRoutes(deletion, identity, (accountId) => tokens.invalidateAccount(accountId)),
    [AccountDeletionServiceToken, IdentityStore, ApiTokenInvalidation],
  );
}
