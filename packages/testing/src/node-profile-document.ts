import { createHash } from 'node:crypto';
import type { NodeProfileDocument } from '@svc/sdk';

/** One compiled list in a profile document's manifest. */
export type ManifestEntry = NodeProfileDocument['lists']['artifacts'][number];

/** What a test changes in {@link nodeProfileDocument}'s document; everything else keeps a plain default. */
export interface NodeProfileDocumentChanges {
  settings?: Partial<NodeProfileDocument['settings']>;
  rules?: Partial<NodeProfileDocument['rules']>;
  filtering?: boolean;
  logging?: boolean;
  /** End of the owner's pause (RFC 3339), null by default. */
  paused_until?: string | null;
  /** Issue 38's policy fields: schedules, bedtime, assignments, allowances and device overrides (none by default). */
  policy?: Partial<
    Pick<NodeProfileDocument, 'schedules' | 'bedtime' | 'schedule_assignments' | 'allowances' | 'devices'>
  >;
  /** The manifest of the enabled lists (none by default); the document's list ids and digest follow it. */
  artifacts?: ManifestEntry[];
}

const LISTS_URL = 'https://api.svc.example/v1/lists';

/**
 * A whole node profile document, unsigned (the agent verifies signatures, not the filter or the resolver that
 * tests feed it to), with the given settings, rules, filtering state and list manifest.
 */
export function nodeProfileDocument(changes: NodeProfileDocumentChanges = {}): NodeProfileDocument {
  const artifacts = changes.artifacts ?? [];
  const sha256 = createHash('sha256').update(JSON.stringify(artifacts)).digest('hex');
  return {
    kind: 'profile',
    id: 'k3x9q2',
    version: 1,
    suspended: changes.filtering === false,
    filtering: changes.filtering ?? true,
    paused_until: changes.paused_until ?? null,
    logging: changes.logging ?? true,
    security: {
      rebinding: false,
      idn_homograph: false,
      typosquat: false,
      nrd: false,
      dga: false,
      cryptojacking: false,
      threat_intel: false,
      csam: false,
    },
    parental: { categories: [], services: [], safe_search: false, youtube_restricted: false },
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: 'self-hosted',
      retention_days: 30,
      cname_uncloak: true,
      cache_boost_ttl: 0,
      ecs: 'off',
      node_queue_hours: 0,
      log_region: 'ca',
      time_zone: 'UTC',
      ...changes.settings,
    },
    ecs: { mode: 'off', operator_cap: { v4: 32, v6: 128 }, source_prefix: { v4: 0, v6: 0 } },
    rules: { deny: [], allow: [], rewrites: [], ...changes.rules },
    schedules: [],
    bedtime: null,
    schedule_assignments: [],
    allowances: [],
    devices: {},
    ...changes.policy,
    lists: { ids: artifacts.map((entry) => entry.list_id), url: LISTS_URL, sha256, artifacts },
    lists_url: LISTS_URL,
    lists_sha256: sha256,
    updated_at: '2026-11-23T00:00:00.000Z',
  };
}
