import {
  type AccountDeletionService,
  ApiTokenInvalidation,
  IdentityStore,
  type ListPipelineService,
  type ListReportTriageService,
  type OperatorBlockService,
  type OperatorSearchService,
  type OperatorViewService,
  type ProfileSuspensionService,
  type SourceBlockService,
} from '@svc/domain';
import type { Container } from 'inversify';
import { accountDeletionOnBehalfRoutes } from '../routes/account-deletion-on-behalf.routes.js';
import { listTriageRoutes } from '../routes/list-triage.routes.js';
import { operatorBlockRoutes } from '../routes/operator-block.routes.js';
import { operatorSearchRoutes } from '../routes/operator-search.routes.js';
import { operatorViewRoutes } from '../routes/operator-views.routes.js';
import { profileSuspensionRoutes } from '../routes/profile-suspension.routes.js';
import type { AnyRoute } from '../routes/route-definition.js';
import { sourceBlockRoutes } from '../routes/source-block.routes.js';
import type { OperatorExpiryScheduler } from './operator-expiry.scheduler.js';
import {
  AccountDeletionServiceToken,
  ListPipelineServiceToken,
  ListReportTriageServiceToken,
  OperatorBlockServiceToken,
  OperatorExpirySchedulerToken,
  OperatorSearchServiceToken,
  OperatorViewServiceToken,
  ProfileSuspensionServiceToken,
  SourceBlockServiceToken,
} from './tokens.js';

/**
 * The operator route tables (spec 4.10; ROUTES.md "Operator"), with their use cases resolved from the container
 * and the expiry republisher started.
 */
export async function resolveOperatorRoutes(container: Container): Promise<AnyRoute[]> {
  const [blocks, sources, suspensions, deletion, identity, tokens, triage, views, pipeline, search] =
    await Promise.all([
      container.getAsync<OperatorBlockService>(OperatorBlockServiceToken),
      container.getAsync<SourceBlockService>(SourceBlockServiceToken),
      container.getAsync<ProfileSuspensionService>(ProfileSuspensionServiceToken),
      container.getAsync<AccountDeletionService>(AccountDeletionServiceToken),
      container.getAsync<IdentityStore>(IdentityStore),
      container.getAsync<ApiTokenInvalidation>(ApiTokenInvalidation),
      container.getAsync<ListReportTriageService>(ListReportTriageServiceToken),
      container.getAsync<OperatorViewService>(OperatorViewServiceToken),
      container.getAsync<ListPipelineService>(ListPipelineServiceToken),
      container.getAsync<OperatorSearchService>(OperatorSearchServiceToken),
      container.getAsync<OperatorExpiryScheduler>(OperatorExpirySchedulerToken),
    ]);
  return [
    ...operatorBlockRoutes(blocks),
    ...sourceBlockRoutes(sources),
    ...profileSuspensionRoutes(suspensions),
    ...listTriageRoutes(triage, pipeline),
    ...operatorViewRoutes(views),
    ...operatorSearchRoutes(search),
    ...accountDeletionOnBehalfRoutes(deletion, identity, (accountId) => tokens.invalidateAccount(accountId)),
  ];
}
