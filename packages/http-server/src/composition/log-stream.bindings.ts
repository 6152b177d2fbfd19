import type { Settings } from '@svc/composition';
import { Clock, type LogQueryService, type ProfileService, type SessionService, Timers } from '@svc/domain';
import type { Container } from 'inversify';
import type { Authenticator } from '../http/principal.js';
import { logStreamRoutes } from '../routes/log-stream.routes.js';
import type { AnyRoute } from '../routes/route-definition.js';
import { StreamSlots } from '../streams/stream-slots.js';
import { LogQueryServiceToken, ProfileServiceToken, SessionServiceToken, SettingsToken } from './tokens.js';

/**
 * The live log stream route (spec 6.1) over the log query service, with this API server's stream slots and
 * the timers the query engine uses (bound by the composition's query-log module).
 */
export async function resolveLogStreamRoutes(
  container: Container,
  authenticator: Authenticator,
): Promise<AnyRoute[]> {
  const [queries, profiles, sessions, clock, timers] = await Promise.all([
    container.getAsync<LogQueryService>(LogQueryServiceToken),
    container.getAsync<ProfileService>(ProfileServiceToken),
    container.getAsync<SessionService>(SessionServiceToken),
    container.getAsync<Clock>(Clock),
    container.getAsync<Timers>(Timers),
  ]);
  const settings = container.get<Settings>(SettingsToken);
  return logStreamRoutes({
    queries,
    profiles,
    sessions,
    authenticator,
    slots: new StreamSlots(),
    clock,
    timers,
    problemBase: settings.problemBase,
  });
}
