import type { NodeProfileDocument } from '@svc/sdk';

/** A whole node profile document (unsigned) with the given settings, rules and filtering state. */
export function profileDocument(
  changes: {
    settings?: Partial<NodeProfileDocument['settings']>;
    rules?: Partial<NodeProfileDocument['rules']>;
    filtering?: boolean;
    logging?: boolean;
  } = {},
): NodeProfileDocument {
  const listsUrl = 'https://api.svc.example/v1/lists';
  const sha256 = '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945';
  return {
    kind: 'profile',
    id: 'k3x9q2',
    version: 1,
    suspended: changes.filtering === false,
    filtering: changes.filtering ?? true,
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
      ...changes.settings,
    },
    ecs: { mode: 'off', operator_cap: { v4: 32, v6: 128 }, source_prefix: { v4: 0, v6: 0 } },
    rules: { deny: [], allow: [], rewrites: [], ...changes.rules },
    lists: { ids: [], url: listsUrl, sha256, artifacts: [] },
    lists_url: listsUrl,
    lists_sha256: sha256,
    updated_at: '2026-11-23T00:00:00.000Z',
  };
}
