import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { sessionsKeys, sessionsQueries } from '../../api/sessions.queries.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** A user agent in a few words: the browser and system, not the whole header. */
function browserOf(userAgent: string): string {
  const browser =
    /(Edg|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(userAgent)?.[1] ?? 'A browser or client';
  const system = /(Windows|Mac OS X|Android|iPhone|iPad|Linux|CrOS)/.exec(userAgent)?.[1];
  return system === undefined
    ? browser
    : `${browser === 'Edg' ? 'Edge' : browser} on ${system.replace('Mac OS X', 'macOS')}`;
}

/** Signed-in sessions: where and when, and signing out one or every other. */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const sessions = useQuery(sessionsQueries.list());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sessionsKeys.list() });
  const revoke = useMutation({
    mutationFn: (id: string) => api.auth.sessions.revoke(id),
    onSuccess: () => {
      refresh();
      notify.success(t('account.sessions.signedOutOne'));
    },
  });
  const revokeOthers = useMutation({
    mutationFn: () => api.auth.sessions.revokeOthers(),
    onSuccess: (outcome) => {
      refresh();
      notify.success(t('account.sessions.signedOutOthers', { revoked: outcome.revoked }));
    },
  });
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {sessions.isError && (
        <ProblemDisplay problem={problemOf(sessions.error)} onRetry={() => void sessions.refetch()} />
      )}
      {revoke.isError && <ProblemDisplay problem={problemOf(revoke.error)} />}
      {revokeOthers.isError && <ProblemDisplay problem={problemOf(revokeOthers.error)} />}
      {revokeOthers.data !== undefined && (
        <p role="status" className="notice">
          {t('account.sessions.signedOutOthers', { revoked: revokeOthers.data.revoked })}
        </p>
      )}
      {sessions.data !== undefined && (
        <TableScroll label="Sessions">
          <table>
            <caption>Sessions</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td>
                    {browserOf(session.user_agent)} ({session.method})
                    {session.current && <strong> · this session</strong>}
                  </td>
                  <td>{session.ip}</td>
                  <td>
                    <DateTime value={session.created_at} />
                  </td>
                  <td>
                    <DateTime value={session.last_used_at} />
                  </td>
                  <td>
                    {!session.current && (
                      <button
                        type="button"
                        disabled={revoke.isPending}
                        onClick={() => revoke.mutate(session.id)}
                        aria-label={`End session: ${browserOf(session.user_agent)} at ${session.ip}, signed in ${new Date(session.created_at).toLocaleString()}`}
                      >
                        End session
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <button type="button" disabled={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
        Sign out every other session
      </button>
    </section>
  );
}
