import type { Lifecycle } from '@svc/composition';
import {
  type AccountDeletionService,
  ApiTokenInvalidation,
  AuditLogStore,
  Clock,
  type CursorSealer,
  IdentityStore,
  KeyedHash,
  type ListPipelineService,
  ListReportTriageService,
  OperatorBlockService,
  OperatorViewService,
  type ProfileService,
  ProfileSuspensionService,
  Random,
  SourceBlockService,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { accountDeletionOnBehalfRoutes } from '../routes/account-deletion-on-behalf.routes.js';
import { listTriageRoutes } from '../routes/list-triage.routes.js';
import { operatorBlockRoutes } from '../routes/operator-block.routes.js';
import { operatorViewRoutes } from '../routes/operator-views.routes.js';
import { profileSuspensionRoutes } from '../routes/profile-suspension.routes.js';
import type { AnyRoute } from '../routes/route-definition.js';
import { sourceBlockRoutes } from '../routes/source-block.routes.js';
import { OperatorExpiryScheduler } from './operator-expiry.scheduler.js';
import {
  AccountDeletionServiceToken,
  CursorSealerToken,
  LifecycleToken,
  ListPipelineServiceToken,
  ListReportTriageServiceToken,
  LoggerToken,
  OperatorBlockServiceToken,
  OperatorExpirySchedulerToken,
  OperatorViewServiceToken,
  ProfileServiceToken,
  ProfileSuspensionServiceToken,
  SourceBlockServiceToken,
} from './tokens.js';

/** Binds the operator use cases (spec 4.10) and the expiry republisher (started on resolve, stopped at close). */
export function bindOperator(container: Container): void {
  container
    .bind<OperatorBlockService>(OperatorBlockServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock, random: Random, cursors: CursorSealer, keyedHash: KeyedHash) =>
        new OperatorBlockService({ uow, clock, random, cursors, keyedHash }),
      [UnitOfWork, Clock, Random, CursorSealerToken, KeyedHash],
    );
  container
    .bind<SourceBlockService>(SourceBlockServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock, random: Random, cursors: CursorSealer) =>
        new SourceBlockService({ uow, clock, random, cursors }),
      [UnitOfWork, Clock, Random, CursorSealerToken],
    );
  container.bind<ProfileSuspensionService>(ProfileSuspensionServiceToken).toResolvedValue(
    (uow: UnitOfWork, clock: Clock, profiles: ProfileService) =>
      new ProfileSuspensionService({
        uow,
        clock,
        publishProfile: (tx, profile) => profiles.publish(tx, profile),
      }),
    [UnitOfWork, Clock, ProfileServiceToken],
  );
  container
    .bind<ListReportTriageService>(ListReportTriageServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock, cursors: CursorSealer) =>
        new ListReportTriageService({ uow, clock, cursors }),
      [UnitOfWork, Clock, CursorSealerToken],
    );
  container
    .bind<OperatorViewService>(OperatorViewServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, auditLog: AuditLogStore, clock: Clock, cursors: CursorSealer) =>
        new OperatorViewService({ uow, auditLog, clock, cursors }),
      [UnitOfWork, AuditLogStore, Clock, CursorSealerToken],
    );
  container.bind<OperatorExpiryScheduler>(OperatorExpirySchedulerToken).toResolvedValue(
    (uow: UnitOfWork, clock: Clock, logger: Logger, lifecycle: Lifecycle) => {
      const scheduler = new OperatorExpiryScheduler(uow, clock, logger);
      scheduler.start();
      return lifecycle.own('operator expiry scheduler', scheduler, (owned) => owned.stop());
    },
    [UnitOfWork, Clock, LoggerToken, LifecycleToken],
  );
}

/**
 * The operator route tables (spec 4.10; ROUTES.md "Operator"), with their use cases resolved from the container
 * and the expiry republisher started.
 */
export async function resolveOperatorRoutes(container: Container): Promise<AnyRoute[]> {
  const [blocks, sources, suspensions, deletion, identity, tokens, triage, views, pipeline] =
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
      container.getAsync<OperatorExpiryScheduler>(OperatorExpirySchedulerToken),
    ]);
  return [
    ...operatorBlockRoutes(blocks),
    ...sourceBlockRoutes(sources),
    ...profileSuspensionRoutes(suspensions),
    ...listTriageRoutes(triage, pipeline),
    ...operatorViewRoutes(views),
    ...accountDeletionOnBehalfRoutes(deletion, identity, (accountId) => tokens.invalidateAccount(accountId)),
  ];
}
