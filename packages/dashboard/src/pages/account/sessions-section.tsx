import type { SessionRecord } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api } from '../../api/client.js';
import { sessionsKeys, sessionsQueries } from '../../api/sessions.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { useNotify } from '../../feedback/notify.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** A user agent in a few words: the browser and system, not the whole header. */
function browserOf(userAgent: string): string {
  const browser = /(Edg|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(userAgent)?.[1];
  const system = /(Windows|Mac OS X|Android|iPhone|iPad|Linux|CrOS)/.exec(userAgent)?.[1];
  if (browser === undefined) return t('account.sessions.unknownBrowser');
  if (system === undefined) return browser;
  return t('account.sessions.browserOn', {
    browser: browser === 'Edg' ? 'Edge' : browser,
    system: system.replace('Mac OS X', 'macOS'),
  });
}

/** The sessions as a table on a wide screen and cards on a phone, each but this one with its End button. */
function SessionsTable({
  sessions,
  ending,
  onEnd,
}: {
  sessions: readonly SessionRecord[];
  ending: boolean;
  onEnd: (session: SessionRecord) => void;
}) {
  return (
    <ResponsiveTable
      caption={t('account.sessions.caption')}
      rows={sessions}
      rowKey={(session) => session.id}
      columns={[
        {
          header: t('account.sessions.device'),
          cell: (session) => (
            <>
              {t('account.sessions.deviceMethod', {
                device: browserOf(session.user_agent),
                method: session.method,
              })}
              {session.current && <strong>{t('account.sessions.current')}</strong>}
            </>
          ),
        },
        { header: t('account.sessions.address'), cell: (session) => session.ip },
        {
          header: t('account.sessions.signedIn'),
          cell: (session) => <DateTime value={session.created_at} />,
        },
        {
          header: t('account.sessions.lastActive'),
          cell: (session) => <DateTime value={session.last_used_at} />,
        },
        {
          header: t('account.sessions.action'),
          cell: (session) =>
            !session.current && (
              <ConfirmedAction
                label={t('account.sessions.end')}
                ariaLabel={t('account.sessions.endNamed', {
                  device: browserOf(session.user_agent),
                  ip: session.ip,
                  signedIn: formatDateTime(session.created_at),
                })}
                confirmLabel={t('account.sessions.endYes')}
                warning={t('account.sessions.endWarning')}
                pending={ending}
                onConfirm={() => onEnd(session)}
              />
            ),
        },
      ]}
    />
  );
}

/** Signed-in sessions: where and when, and signing out one or every other. */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // The ended session's button leaves with its row: focus goes to the section's heading, not to the page's top.
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = useQuery(sessionsQueries.list());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sessionsKeys.list() });
  const revoke = useMutation({
    mutationFn: (id: string) => api.auth.sessions.revoke(id),
    onSuccess: () => {
      heading.current?.focus();
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
      <h2 id="sessions-title" ref={heading} tabIndex={-1}>
        {t('account.sessions.title')}
      </h2>
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
        <SessionsTable
          sessions={sessions.data}
          ending={revoke.isPending}
          onEnd={(session) => revoke.mutate(session.id)}
        />
      )}
      <button type="button" disabled={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
        {t('account.sessions.endOthers')}
      </button>
    </section>
  );
}
