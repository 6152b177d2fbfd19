import {
  AuditLogStore,
  auditActorEmails,
  Clock,
  type CursorSealer,
  IdentityStore,
  KeyedHash,
  ListReportTriageService,
  OperatorBlockService,
  OperatorSearchService,
  OperatorViewService,
  type ProfileService,
  ProfileSuspensionService,
  Random,
  SourceBlockService,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import {
  CursorSealerToken,
  ListReportTriageServiceToken,
  OperatorBlockServiceToken,
  OperatorSearchServiceToken,
  OperatorViewServiceToken,
  ProfileServiceToken,
  ProfileSuspensionServiceToken,
  SourceBlockServiceToken,
} from './use-case.tokens.js';

/** Binds the operator use cases (spec 4.10); the expiry republisher is the HTTP server's background work. */
export function operatorModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<OperatorBlockService>(OperatorBlockServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, random: Random, cursors: CursorSealer, keyedHash: KeyedHash) =>
        new OperatorBlockService({ uow, clock, random, cursors, keyedHash }),
      [UnitOfWork, Clock, Random, CursorSealerToken, KeyedHash],
    );
    bind<SourceBlockService>(SourceBlockServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, random: Random, cursors: CursorSealer) =>
        new SourceBlockService({ uow, clock, random, cursors }),
      [UnitOfWork, Clock, Random, CursorSealerToken],
    );
    bind<ProfileSuspensionService>(ProfileSuspensionServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, profiles: ProfileService) =>
        new ProfileSuspensionService({
          uow,
          clock,
          publishProfile: (tx, profile) => profiles.publish(tx, profile),
        }),
      [UnitOfWork, Clock, ProfileServiceToken],
    );
    bind<ListReportTriageService>(ListReportTriageServiceToken).toResolvedValue(
      (uow: UnitOfWork, clock: Clock, cursors: CursorSealer, random: Random) =>
        new ListReportTriageService({ uow, clock, cursors, random }),
      [UnitOfWork, Clock, CursorSealerToken, Random],
    );
    bind<OperatorViewService>(OperatorViewServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        auditLog: AuditLogStore,
        clock: Clock,
        cursors: CursorSealer,
        identity: IdentityStore,
      ) => new OperatorViewService({ uow, auditLog, clock, cursors, actors: auditActorEmails(identity) }),
      [UnitOfWork, AuditLogStore, Clock, CursorSealerToken, IdentityStore],
    );
    bind<OperatorSearchService>(OperatorSearchServiceToken).toResolvedValue(
      (uow: UnitOfWork, cursors: CursorSealer) => new OperatorSearchService({ uow, cursors }),
      [UnitOfWork, CursorSealerToken],
    );
  });
}
