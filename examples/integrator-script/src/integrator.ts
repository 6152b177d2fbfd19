import { pathToFileURL } from 'node:url';
import { createClient, isApiError, queryRecords, type SvcClient } from '@svc/sdk';

/** What the integration set up, and what the profile's analytics said. */
export interface IntegrationResult {
  profileId: string;
  deny: string[];
  linkedIp: string | null;
  /**
   * `active` when the script ran on the linked network itself (the request proved the address); otherwise
   * `pending` until `proofUrl` is opened from that network within 24 hours.
   */
  linkedIpState: 'pending' | 'active';
  /** The pending link's proof URL, to open from the linked network (its router's DDNS client may call it). */
  proofUrl?: string;
  analytics: AnalyticsSummary;
}

/** The last day of a profile's traffic: the most queried names and the queries by status. */
export interface AnalyticsSummary {
  topDomains: { qname: string; count: number }[];
  byStatus: Record<string, number>;
}

/** What to set up. */
export interface IntegrationPlan {
  profileName: string;
  deny: string[];
  /** The public IPv4 address whose plain DNS goes to the new profile. */
  ip: string;
}

/**
 * The integration: creates a profile, replaces its rules (reading the ETag first, writing with If-Match),
 * links an IP address to it, and reads its analytics. Every step is one SDK call or two.
 */
export async function integrate(svc: SvcClient, plan: IntegrationPlan): Promise<IntegrationResult> {
  const profile = await svc.profiles.create({ name: plan.profileName });

  const { data: rules, etag } = await svc.profiles.rules.get(profile.id).withResponse();
  const saved = await svc.profiles.rules.replace(
    profile.id,
    { ...rules, deny: plan.deny },
    { ifMatch: etag },
  );

  const link = await svc.profiles.linkedIps.create(profile.id, { ip: plan.ip });

  return {
    profileId: profile.id,
    deny: saved.deny,
    linkedIp: link.ip,
    linkedIpState: link.state,
    ...(link.proof_url === undefined ? {} : { proofUrl: link.proof_url }),
    analytics: await readAnalytics(svc, profile.id),
  };
}

/** The last 24 hours of a profile's analytics, read by column name (columns may be added, never moved). */
export async function readAnalytics(svc: SvcClient, profileId: string): Promise<AnalyticsSummary> {
  const lastDay = { from: new Date(Date.now() - 24 * 3600_000) };
  const top = await svc.profiles.analytics.topDomains(profileId, { ...lastDay, limit: 5 });
  const counts = await svc.profiles.analytics.countsByStatus(profileId, lastDay);
  const byStatus: Record<string, number> = {};
  for (const row of queryRecords(counts))
    byStatus[String(row.status)] = (byStatus[String(row.status)] ?? 0) + Number(row.count);
  return {
    topDomains: queryRecords(top).map((row) => ({ qname: String(row.qname), count: Number(row.count) })),
    byStatus,
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`set ${name} (see README.md)`);
  return value;
}

/** `node --import tsx src/integrator.ts`: prints the result as JSON; exit code 1 with the problem otherwise. */
async function main(): Promise<void> {
  const svc = createClient({ baseUrl: required('SVC_BASE_URL'), token: required('SVC_TOKEN') });
  try {
    const result = await integrate(svc, {
      profileName: process.env.SVC_PROFILE_NAME ?? 'Integrator example',
      deny: (process.env.SVC_DENY ?? 'ads.example.com,tracker.example.net').split(','),
      ip: process.env.SVC_LINK_IP ?? '203.0.113.10',
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    // An API problem prints its code and request id, the two things support asks for.
    if (isApiError(error))
      process.stderr.write(`${error.status} ${error.code} (request ${error.requestId})\n`);
    else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
