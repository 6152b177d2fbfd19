import type { AuditScope, AuditSource } from '../audit/audit.ports.js';
import {
  type Allowance,
  type AllowanceCreate,
  MAX_ACTIVE_ALLOWANCES,
} from '../policies/allowance.schemas.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import { schedulesNamedBy } from '../policies/device-policy-references.js';
import { unknownAllowanceService, unknownAssignmentTargets } from '../policies/policy-references.js';
import type { ProfileSchedules } from '../schedules/schedule.schemas.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, type FieldError, notFound } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import { activeAllowances } from './document-policy.js';
import type { ProfileWriter, ProfileWriteScope } from './profile.ports.js';
import type { ProfileRecord } from './profile.records.js';

/** Field errors for each schedule a device policy names that `names` no longer has (a PUT removing it). */
function schedulesStillNamed(
  devices: Readonly<Record<string, DocumentDevicePolicy>>,
  names: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [deviceId, policy] of Object.entries(devices))
    for (const name of schedulesNamedBy(policy))
      if (!names.has(name))
        errors.push({
          field: 'schedules',
          message: `must keep schedule ${name}: device ${deviceId} names it`,
        });
  return errors;
}

/** What a policy write uses of a transaction: the profile's versioned write and an audit entry. */
type ProfilePolicyScope = ProfileWriteScope & AuditScope;

/** What the policy use cases are built from. */
export interface ProfilePolicyDependencies {
  uow: ScopedUnitOfWork<ProfilePolicyScope>;
  /** The profile's versioned write (If-Match, suspension, version bump, publication) and its reads. */
  profiles: ProfileWriter & { get(orgId: string, id: string): Promise<ProfileRecord> };
  clock: Clock;
  random: Random;
  /** True when a blocklist id is in the catalogue. */
  isCataloguedList: (listId: number) => boolean;
}

/**
 * Issue 38's policies kept on the profile (ADR 0044): its schedules with their bedtime and assignments, and its
 * timed allowances. Each write is a versioned write of the profile, so its documents carry the change.
 */
export class ProfilePolicyService {
  constructor(private readonly deps: ProfilePolicyDependencies) {}

  /** GET schedules: the schedules, bedtime and assignments with the profile's version. */
  async schedules(orgId: string, id: string): Promise<ProfileRecord> {
    return this.deps.profiles.get(orgId, id);
  }

  /**
   * PUT schedules: replaces the schedules, the bedtime and the assignments in one version bump; 422 naming
   * each assignment whose service, category or list the catalogues do not know.
   */
  async replaceSchedules(
    orgId: string,
    id: string,
    body: ProfileSchedules,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    const errors = unknownAssignmentTargets(body.assignments, this.deps.isCataloguedList);
    if (errors.length > 0)
      throw new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors: errors });
    return this.deps.profiles.write(this.deps.uow, orgId, id, expectedVersion, async (current, tx) => {
      const names = new Set(body.schedules.map((schedule) => schedule.name));
      const stillNamed = schedulesStillNamed(await tx.devices.documentPolicies(id), names);
      if (stillNamed.length > 0)
        throw new DomainError('validation_failed', 'The request has invalid fields.', {
          fieldErrors: stillNamed,
        });
      return {
        ...current,
        schedules: body.schedules,
        bedtime: body.bedtime,
        scheduleAssignments: body.assignments,
      };
    });
  }

  /** GET allowances: those not yet expired by the clock port, soonest to end first. */
  async allowances(orgId: string, id: string): Promise<Allowance[]> {
    const record = await this.deps.profiles.get(orgId, id);
    return activeAllowances(record.allowances, this.deps.clock.now());
  }

  /**
   * POST allowances: allows a name or unblocks a parental service for `minutes` from now, as a versioned write
   * published to the edges and audited as `profile.allowance_created`. Expired allowances are dropped from the
   * row by the same write; 422 too_many_allowances when {@link MAX_ACTIVE_ALLOWANCES} still run.
   */
  async allow(
    orgId: string,
    id: string,
    request: AllowanceCreate,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<Allowance> {
    const unknown = unknownAllowanceService(request.service);
    if (unknown.length > 0)
      throw new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors: unknown });
    const now = this.deps.clock.now();
    const allowance: Allowance = {
      id: this.deps.random.uuid(),
      domain: request.domain ?? null,
      service: request.service ?? null,
      expires_at: new Date(now.getTime() + request.minutes * 60_000).toISOString(),
      created_at: now.toISOString(),
    };
    await this.deps.profiles.write(this.deps.uow, orgId, id, expectedVersion, async (current, tx) => {
      const running = activeAllowances(current.allowances, now);
      if (running.length >= MAX_ACTIVE_ALLOWANCES)
        throw new DomainError(
          'too_many_allowances',
          `A profile runs at most ${MAX_ACTIVE_ALLOWANCES} timed allowances at once; end one or wait for one to expire.`,
        );
      await tx.audit.record({
        ...source,
        orgId,
        action: 'profile.allowance_created',
        target: `profiles/${id}/allowances/${allowance.id}`,
        details: { domain: allowance.domain, service: allowance.service, minutes: request.minutes },
        at: now,
      });
      return { ...current, allowances: [...running, allowance] };
    });
    return allowance;
  }

  /**
   * DELETE an allowance: ends it at once (a versioned write, published, audited as `profile.allowance_ended`);
   * 404 for an id the profile does not run (never had, ended or expired).
   */
  async endAllowance(
    orgId: string,
    id: string,
    allowanceId: string,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    const now = this.deps.clock.now();
    return this.deps.profiles.write(this.deps.uow, orgId, id, expectedVersion, async (current, tx) => {
      const running = activeAllowances(current.allowances, now);
      const ended = running.find((allowance) => allowance.id === allowanceId);
      if (ended === undefined) throw notFound('allowance');
      await tx.audit.record({
        ...source,
        orgId,
        action: 'profile.allowance_ended',
        target: `profiles/${id}/allowances/${allowanceId}`,
        details: { domain: ended.domain, service: ended.service, expires_at: ended.expires_at },
        at: now,
      });
      return { ...current, allowances: running.filter((allowance) => allowance !== ended) };
    });
  }
}
