import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import type { Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const limitVariables = {
  SVC_RULES_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(1000).register(settingDocs, {
    description:
      "the plan's limit of deny, allow and rewrite rules per profile (422 `too_many_rules` beyond)",
  }),
  SVC_LINKED_IPS_PER_PROFILE: z.coerce.number().int().min(1).max(100_000).default(20).register(settingDocs, {
    description: 'linked IPs (DDNS slots included) one profile may have (422 `too_many_linked_ips` beyond)',
  }),
  SVC_LINKED_IPS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(100)
    .register(settingDocs, {
      description: 'linked IPs one account may have over all its profiles (422 `too_many_linked_ips` beyond)',
    }),
  SVC_ECS_CAP_V4: z.coerce.number().int().min(0).max(32).default(32).register(settingDocs, {
    description:
      "the operator's cap on the IPv4 ECS source prefix resolvers forward (0–32); bounds every profile's ECS mode",
  }),
  SVC_ECS_CAP_V6: z.coerce.number().int().min(0).max(128).default(128).register(settingDocs, {
    description: 'the same cap for IPv6 (0–128)',
  }),
};

/** The plan's and the operator's limits on what a profile may hold or ask for. */
export interface LimitSettings {
  /** Rules per profile (422 too_many_rules beyond). */
  rulesPerProfile: number;
  /** Links (DDNS slots included) per profile and per account over its profiles (422 too_many_linked_ips). */
  linkedIps: { perProfile: number; perAccount: number };
  /** The operator's cap on the ECS source prefixes the resolvers forward (spec 2.3 settings.ecs). */
  ecsOperatorCap: { v4: number; v6: number };
}

export function limitSettings(raw: Parsed<typeof limitVariables>): LimitSettings {
  return {
    rulesPerProfile: raw.SVC_RULES_LIMIT,
    linkedIps: { perProfile: raw.SVC_LINKED_IPS_PER_PROFILE, perAccount: raw.SVC_LINKED_IPS_PER_ACCOUNT },
    ecsOperatorCap: { v4: raw.SVC_ECS_CAP_V4, v6: raw.SVC_ECS_CAP_V6 },
  };
}
