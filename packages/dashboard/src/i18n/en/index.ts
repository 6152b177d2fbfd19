import { account } from './account.js';
import { accountEntry } from './account-entry.js';
import { accountSecurity } from './account-security.js';
import { allowances } from './allowances.js';
import { analytics } from './analytics.js';
import { common } from './common.js';
import { feedback } from './feedback.js';
import { limits } from './limits.js';
import { logs } from './logs.js';
import { members } from './members.js';
import { nodes } from './nodes.js';
import { operator } from './operator.js';
import { operatorLists } from './operator-lists.js';
import { pause } from './pause.js';
import { problems } from './problems.js';
import { profiles } from './profiles.js';
import { schedules } from './schedules.js';
import { webhooks } from './webhooks.js';

/**
 * The English catalogue: every user-visible string of the dashboard, by key. Each area keeps its own module
 * (`en/<area>.ts`, keys prefixed with the area) so that pages are translated area by area; another language is
 * a folder of the same shape whose catalogue `satisfies Catalogue`.
 */
export const en = {
  ...common,
  ...account,
  ...accountEntry,
  ...accountSecurity,
  ...allowances,
  ...analytics,
  ...feedback,
  ...limits,
  ...logs,
  ...members,
  ...nodes,
  ...operator,
  ...operatorLists,
  ...pause,
  ...problems,
  ...profiles,
  ...schedules,
  ...webhooks,
} as const;

/** The shape every language's catalogue has. */
export type Catalogue = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : (typeof en)[K];
};
