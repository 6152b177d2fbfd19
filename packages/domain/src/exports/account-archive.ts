import type { AuditActorEmails, AuditLogStore } from '../audit/audit.ports.js';
import { auditEntryView } from '../audit/audit-log.service.js';
import type { DevicePage, DeviceRecord } from '../devices/device.ports.js';
import type { Device } from '../devices/device.schemas.js';
import { accountView } from '../identity/account-view.js';
import { tokenRecordOf } from '../identity/api-token.service.js';
import { IdentityLimits } from '../identity/identity.settings.js';
import { passkeyView } from '../identity/passkey.service.js';
import type { LinkedIpRecord } from '../linked-ips/linked-ip.ports.js';
import type { LinkedIp } from '../linked-ips/linked-ip.schemas.js';
import type { ListReportRecord } from '../list-reports/list-report.ports.js';
import type { ListReport } from '../list-reports/list-report.schemas.js';
import type { NodeRecord } from '../nodes/node.records.js';
import type { Node } from '../nodes/node.schemas.js';
import type { KeysetPage } from '../pagination/keyset.js';
import { DEFAULT_PREFERENCES } from '../preferences/preferences.schemas.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Profile } from '../profiles/profile.schemas.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { AccountArchiveScope } from './data-export.ports.js';

/** Rows read per query while collecting: large organisations are read in pages, never in one query. */
const BATCH = 200;

/**
 * Version of the archive's layout, so that a reader can tell later layouts apart. Version 2: JSON lines, this
 * document the first line (`type: account_data`), the profiles' query logs after it.
 */
const ACCOUNT_ARCHIVE_FORMAT = { name: 'svc-account-export', version: 2 } as const;

/**
 * How the API shows each resource: the archive holds them exactly as the API answers them, so a reader needs
 * no second description of the data.
 */
interface AccountArchiveViews {
  profile(record: ProfileRecord): Profile;
  linkedIp(record: LinkedIpRecord): LinkedIp;
  device(record: DeviceRecord): Device;
  listReport(record: ListReportRecord): ListReport;
  node(record: NodeRecord): Node;
}

/** What the archive is read from. */
export interface AccountArchiveDependencies {
  uow: ScopedUnitOfWork<AccountArchiveScope>;
  audit: AuditLogStore;
  /** The audit entries' actors as the API names them (their emails within the organisation). */
  actors: AuditActorEmails;
  views: AccountArchiveViews;
}

/** Every row of a newest-first keyset list, read page by page. */
async function everyRow<T extends { createdAt: Date; id: string }>(
  fetch: (page: KeysetPage) => Promise<T[]>,
): Promise<T[]> {
  const rows: T[] = [];
  let after: KeysetPage['after'] = null;
  for (;;) {
    const page = await fetch({ limit: BATCH, after });
    rows.push(...page);
    const last = page.at(-1);
    if (page.length < BATCH || last === undefined) return rows;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

async function everyDevice(tx: AccountArchiveScope, profileId: string): Promise<DeviceRecord[]> {
  const rows: DeviceRecord[] = [];
  let after: DevicePage['after'] = null;
  for (;;) {
    const page = await tx.devices.list(profileId, { limit: BATCH, after });
    rows.push(...page);
    const last = page.at(-1);
    if (page.length < BATCH || last === undefined) return rows;
    after = { lastSeen: last.lastSeen, id: last.id };
  }
}

/**
 * Collects everything the service keeps about an account and its organisation that the owner may see
 * (GDPR data export): the account, preferences, sessions, API tokens and passkeys (metadata, never a secret),
 * second-factor state, profiles with rules, lists, linked IPs, devices, list reports and nodes (no secrets),
 * the audit log and the feedback sent. Reads happen in one transaction (one consistent view), the audit log after it.
 */
export class AccountArchiveCollector {
  constructor(private readonly deps: AccountArchiveDependencies) {}

  /** The archive document of the account, or null when the account no longer exists. */
  async collect(accountId: string, now: Date): Promise<Record<string, unknown> | null> {
    const { views } = this.deps;
    const body = await this.deps.uow.run(async (tx) => {
      const account = await tx.identity.accounts.findById(accountId);
      if (account === null) return null;
      const stored = await tx.preferences.find(accountId);
      const sessions = await tx.identity.sessions.listLive(
        accountId,
        new Date(now.getTime() - IdentityLimits.sessionLifetimeMs),
        new Date(now.getTime() - IdentityLimits.sessionIdleMs),
      );
      const tokens = await everyRow((page) => tx.identity.apiTokens.listByAccount(accountId, page));
      const passkeys = await tx.identity.passkeys.listByAccount(accountId);
      const totp = await tx.identity.secondFactors.totp(accountId);
      const recoveryCodes = await tx.identity.secondFactors.remainingRecoveryCodes(accountId);
      const profiles = [];
      for (const profile of await everyRow((page) => tx.profiles.list(account.orgId, page))) {
        const linkedIps = await everyRow((page) => tx.linkedIps.list(account.orgId, profile.id, page));
        const devices = await everyDevice(tx, profile.id);
        const reports = await everyRow((page) => tx.listReports.list(account.orgId, profile.id, page));
        const nodes = await everyRow((page) => tx.nodes.list(account.orgId, profile.id, page));
        profiles.push({
          ...views.profile(profile),
          rules: profile.rules,
          lists: profile.lists,
          linked_ips: linkedIps.map((link) => views.linkedIp(link)),
          devices: devices.map((device) => views.device(device)),
          list_reports: reports.map((report) => views.listReport(report)),
          nodes: nodes.map((node) => views.node(node)),
        });
      }
      const feedback = await tx.feedback.byAccount(accountId);
      return {
        account: accountView(account),
        organisation: { id: account.orgId },
        preferences: { alerts: { ...DEFAULT_PREFERENCES.alerts, ...stored.alerts } },
        sessions: sessions.map((session) => ({
          id: session.id,
          created_at: session.createdAt.toISOString(),
          last_used_at: session.lastUsedAt.toISOString(),
          user_agent: session.userAgent,
          ip: session.ip,
          method: session.method,
        })),
        api_tokens: tokens.map(tokenRecordOf),
        passkeys: passkeys.map(passkeyView),
        second_factors: {
          totp_enabled: totp.enabledAt !== null,
          totp_enabled_at: totp.enabledAt?.toISOString() ?? null,
          recovery_codes_remaining: recoveryCodes,
        },
        profiles,
        feedback: feedback.map((row) => ({
          id: row.id,
          message: row.message,
          rating: row.rating,
          url: row.url,
          created_at: row.createdAt.toISOString(),
        })),
        orgId: account.orgId,
      };
    });
    if (body === null) return null;
    const { orgId, ...sections } = body;
    return {
      format: ACCOUNT_ARCHIVE_FORMAT,
      exported_at: now.toISOString(),
      ...sections,
      audit_entries: await this.auditEntryViews(orgId),
    };
  }

  private async auditEntryViews(orgId: string) {
    const entries = await this.auditEntries(orgId);
    const emails = await this.deps.actors.emailsOf([...new Set(entries.map((entry) => entry.actor))], orgId);
    return entries.map((entry) => auditEntryView(entry, emails));
  }

  private async auditEntries(orgId: string) {
    const entries = [];
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page = await this.deps.audit.page(orgId, { limit: BATCH, after, actions: [] });
      entries.push(...page);
      const last = page.at(-1);
      if (page.length < BATCH || last === undefined) return entries;
      after = { at: last.at, id: last.id };
    }
  }
}
