import {
  AttemptLimiter,
  AuditLogService,
  AuditLogStore,
  auditActorEmails,
  ClientErrorService,
  Clock,
  type CursorSealer,
  FeedbackService,
  IdentityStore,
  PreferencesService,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import {
  AuditLogServiceToken,
  ClientErrorServiceToken,
  CursorSealerToken,
  FeedbackServiceToken,
  PreferencesServiceToken,
} from './use-case.tokens.js';

/** Binds preferences, the audit log reader, dashboard error reports and feedback. */
export function accountFeedbackModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<PreferencesService>(PreferencesServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock) => new PreferencesService({ uow, clock }),
      [UnitOfWork, Clock],
    );
    bind<AuditLogService>(AuditLogServiceToken).toResolvedValue(
      (store: AuditLogStore, cursors: CursorSealer, identity: IdentityStore) =>
        new AuditLogService({ store, cursors, actors: auditActorEmails(identity) }),
      [AuditLogStore, CursorSealerToken, IdentityStore],
    );
    bind<ClientErrorService>(ClientErrorServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, limiter: AttemptLimiter) =>
        new ClientErrorService({ uow, clock, limiter }),
      [UnitOfWork, Clock, AttemptLimiter],
    );
    bind<FeedbackService>(FeedbackServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock) => new FeedbackService({ uow, clock }),
      [UnitOfWork, Clock],
    );
  });
}
