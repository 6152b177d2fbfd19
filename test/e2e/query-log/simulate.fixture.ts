import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { findBlocklist, type QueryLogRow } from '@svc/domain';
import { EdgeTrafficSimulation, type SimulatedProfile, servingPops } from '@svc/edge-simulator';
import type { TestAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
export const HOUR = 3_600_000;

export type Destination = 'cloud' | 'both' | 'none' | 'self-hosted';

export interface DeviceBody {
  id: string;
  name: string;
  transport_last: string | null;
  identification: string;
  first_seen: string;
  last_seen: string;
  queries_24h: number | null;
  blocked_24h: number | null;
}

export async function rowsOf<T>(
  client: ClickHouseClient,
  query: string,
  params: Record<string, unknown>,
): Promise<T[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}

/** The rows the simulator generates for these inputs, regenerated here to compute expectations. */
export function regenerate(
  profile: SimulatedProfile,
  options: { queries: number; days: number; devices: number; seed: number; now: Date },
): { simulation: EdgeTrafficSimulation; rows: QueryLogRow[] } {
  const simulation = new EdgeTrafficSimulation(
    { ...profile, settings: { ...profile.settings, log_destination: 'cloud' } },
    options,
    sha256,
    servingPops(),
  );
  return { simulation, rows: [...simulation.batches()].flat() };
}

/** The profile as the edge sees it, read through HTTP (settings, rules, enabled lists by catalogue name). */
export async function edgeViewOf(url: string, owner: TestAccount, id: string): Promise<SimulatedProfile> {
  const profile = (await send(`${url}/v1/profiles/${id}`, { headers: owner.auth })).json as {
    settings: SimulatedProfile['settings'];
    suspended: boolean;
  };
  const rules = (await send(`${url}/v1/profiles/${id}/rules`, { headers: owner.auth }))
    .json as SimulatedProfile['rules'];
  const lists = (await send(`${url}/v1/profiles/${id}/lists`, { headers: owner.auth })).json as {
    lists: number[];
  };
  return {
    id,
    settings: profile.settings,
    rules,
    lists: lists.lists.map((list) => ({ id: list, name: findBlocklist(list)?.name ?? '' })),
    suspended: profile.suspended,
  };
}
