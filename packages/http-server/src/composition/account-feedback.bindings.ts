import {
  AttemptLimiter,
  AuditLogService,
  AuditLogStore,
  ClientErrorService,
  Clock,
  type CursorSealer,
  FeedbackService,
  PreferencesService,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import {
  AuditLogServiceToken,
  ClientErrorServiceToken,
  CursorSealerToken,
  FeedbackServiceToken,
  PreferencesServiceToken,
} from './tokens.js';

/** Binds preferences, the audit log reader, dashboard error reports and feedback. */
export function bindAccountFeedback(container: Container): void {
  container
    .bind<PreferencesService>(PreferencesServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock) => new PreferencesService({ uow, clock }),
      [UnitOfWork, Clock],
    );
  container
    .bind<AuditLogService>(AuditLogServiceToken)
    .toResolvedValue(
      (store: AuditLogStore, cursors: CursorSealer) => new AuditLogService({ store, cursors }),
      [AuditLogStore, CursorSealerToken],
    );
  container
    .bind<ClientErrorService>(ClientErrorServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock, limiter: AttemptLimiter) =>
        new ClientErrorService({ uow, clock, limiter }),
      [UnitOfWork, Clock, AttemptLimiter],
    );
  container
    .bind<FeedbackService>(FeedbackServiceToken)
    .toResolvedValue(
      (uow: UnitOfWork, clock: Clock) => new FeedbackService({ uow, clock }),
      [UnitOfWork, Clock],
    );
}
