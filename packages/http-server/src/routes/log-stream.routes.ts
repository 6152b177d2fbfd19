import {
  type Clock,
  DomainError,
  LOG_LIMIT_DEFAULT,
  LogQueryParameters,
  type LogQueryService,
  ProfileId,
  type ProfileService,
  type SessionService,
  type Timers,
} from '@svc/domain';
import { z } from 'zod';
import type { Authenticator, Principal } from '../http/principal.js';
import { isTransientFailure, LogEventStream, type StreamPermission } from '../streams/log-event-stream.js';
import type { StreamSlots } from '../streams/stream-slots.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingOrgId } from './route-principal.js';

/** Query of a live log stream: the filters of a tail query and the cursor to resume from (spec 4.6, 6.1). */
const LogStreamParameters = LogQueryParameters.omit({ mode: true, to: true });

/** What the live log stream route needs. */
export interface LogStreamRouteDependencies {
  queries: LogQueryService;
  profiles: Pick<ProfileService, 'get'>;
  sessions: Pick<SessionService, 'list'>;
  authenticator: Authenticator;
  slots: StreamSlots;
  clock: Clock;
  timers: Timers;
  problemBase: string;
}

const DESCRIPTION = `Server-sent events (spec 6.1) carrying the filters of a tail query. Events: \`rows\` (data: a query result with the new rows, newest first; the event id is the tail cursor after them; the first event carries the latest rows up to \`limit\` unless resuming; sent only when there are rows); \`error\` (data: a problem document; the stream goes on after node_offline, node_timeout or a 5xx and ends after any other); \`partial\` (data: \`{"partial": true, "partial_reason": "node_reconnecting"}\`, once while a self-hosted profile's node reconnects, until a complete poll); a \`: heartbeat\` comment every 15 s, re-checking the credential and the profile (a revoked session or token or a deleted profile ends the stream; a re-check that cannot be made, the database out of reach, keeps the stream open and is tried again at the next heartbeat, and after a minute of such failures the stream sends a 503 \`error\` event and ends). Resume with the \`Last-Event-ID\` header or \`cursor\` set to the last event id: no gap, no repeat. The destination is polled every second; a stream ends after one hour; at most 4 streams per account per API server (429 too_many_streams). Polling GET /v1/profiles/{id}/logs with the tail cursor is the fallback. Errors found before the stream starts (validation, cursor, profile, scope) answer as problem documents.`;

/** GET /v1/profiles/{id}/logs/stream (spec 4.6, 6.1). */
export function logStreamRoutes(deps: LogStreamRouteDependencies): AnyRoute[] {
  /**
   * The credential that opened the stream is still live (sessions are looked up without renewing them). A
   * refusal (a DomainError such as unauthenticated) is an answer; any other failure is the check failing
   * (the database out of reach) and is thrown, for the stream to decide later.
   */
  const credentialLive = async (
    principal: Principal,
    request: { headers: Parameters<Authenticator['authenticate']>[0]['headers']; clientIp: string },
  ): Promise<boolean> => {
    const session = principal.session;
    if (principal.kind === 'session' && session != null && principal.accountId !== null) {
      const live = await deps.sessions.list(principal.accountId, session.id);
      return live.some((entry) => entry.id === session.id);
    }
    try {
      return (await deps.authenticator.authenticate(request)) !== null;
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
  };

  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/logs/stream',
      operationId: 'streamLogs',
      summary: 'A live stream of a profile’s query logs',
      description: DESCRIPTION,
      tags: ['logs'],
      auth: 'account',
      scope: 'logs:read',
      request: { params: z.object({ id: ProfileId }), query: LogStreamParameters },
      errorStatuses: [429, 501, 502, 503, 504],
      responses: {
        200: {
          description:
            'An event stream (text/event-stream): `rows`, `error` and `partial` events and `: heartbeat` comments.',
          contentType: 'text/event-stream',
          schema: z.string(),
        },
      },
      handler: async ({ principal, params, query, headers, clientIp, requestId }) => {
        const account = actingAccount(principal);
        const orgId = actingOrgId(principal);
        const { cursor: queried, ...filters } = query;
        const lastEventId = headers['last-event-id'];
        const resume = typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : queried;
        const problemContext = { requestId, problemBase: deps.problemBase };
        const poll = (cursor: string | undefined) =>
          deps.queries.logs(orgId, params.id, {
            ...filters,
            mode: 'tail',
            ...(cursor === undefined ? {} : { cursor }),
          });
        const release = deps.slots.acquire(account.id);
        let first: { result: Awaited<ReturnType<typeof poll>> } | { failure: unknown };
        try {
          first = { result: await poll(resume) };
        } catch (error) {
          // Before the stream starts only a transient failure becomes an event; others answer as problems.
          if (!isTransientFailure(error, problemContext)) {
            release();
            throw error;
          }
          first = { failure: error };
        }
        const opener = principal as Principal;
        return {
          status: 200,
          headers: {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache',
            'X-Accel-Buffering': 'no',
          },
          stream: (channel) => {
            const stream = new LogEventStream(
              {
                poll,
                stillAllowed: async (): Promise<StreamPermission> => {
                  try {
                    if (!(await credentialLive(opener, { headers, clientIp }))) return 'revoked';
                    await deps.profiles.get(orgId, params.id);
                    return 'allowed';
                  } catch (error) {
                    // A domain answer (the profile gone, the credential refused) ends the stream; an outage
                    // of the check does not, for a while (issue 35).
                    return error instanceof DomainError ? 'revoked' : 'unchecked';
                  }
                },
                clock: deps.clock,
                timers: deps.timers,
                problemContext,
                release,
                limit: filters.limit ?? LOG_LIMIT_DEFAULT,
              },
              channel,
              resume,
            );
            stream.start(first);
          },
        };
      },
    }),
  ];
}
