import { NODE_ALERT_DELAY_DEFAULT_SECONDS } from '@svc/domain';
import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import type { Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const nodeVariables = {
  SVC_NODE_ALERT_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(NODE_ALERT_DELAY_DEFAULT_SECONDS)
    .register(settingDocs, {
      description:
        "how long a node's link may stay down before its owners are emailed (preference `alerts.node_offline`; at most twice per node in 6 h)",
    }),
  SVC_NODE_LINK_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(2_097_152, 'must be at least 2097152 (twice the largest link message)')
    .max(1_073_741_824)
    .default(8_388_608)
    .register(settingDocs, {
      defaultText: '`8388608` (8 MiB)',
      description:
        'bytes a node link may send a second (a second of it at once; at least 2 MiB); over it the link is closed with 4005',
    }),
  SVC_NODE_LINK_MESSAGES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(100)
    .register(settingDocs, {
      description:
        'messages a node link may send a second (a second of them at once); over it the link is closed with 4005',
    }),
};

/** Self-hosted nodes: their alerts and what their links may send. */
export interface NodeSettings {
  /** How long a node's link may stay down before its organisation's owners are emailed (spec 8). */
  alertDelaySeconds: number;
  /** What one node link may send a second before it is closed (docs/node-link-protocol.md, 4005). */
  linkBudget: { bytesPerSecond: number; messagesPerSecond: number };
}

export function nodeSettings(raw: Parsed<typeof nodeVariables>): NodeSettings {
  return {
    alertDelaySeconds: raw.SVC_NODE_ALERT_DELAY_SECONDS,
    linkBudget: {
      bytesPerSecond: raw.SVC_NODE_LINK_BYTES_PER_SECOND,
      messagesPerSecond: raw.SVC_NODE_LINK_MESSAGES_PER_SECOND,
    },
  };
}
