import type { Allowance } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { allowancesMutations, allowancesQueries } from '../../api/allowances.queries.js';
import { formatDateTime, formatRelative } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useNow } from './use-now.js';

/** What an allowance lets through, in words. */
function allowanceSubject(allowance: Allowance): string {
  return allowance.domain ?? allowance.service ?? '';
}

/**
 * "Running allowances" (issue 38): each with the time it has left and End. Those whose time is up are left
 * out, as the edges stop honouring them by their own clocks before the list is read again.
 */
export function RunningAllowances({ profileId }: { profileId: string }) {
  const queryClient = useQueryClient();
  const now = useNow();
  const allowances = useQuery(allowancesQueries.of(profileId));
  const end = useMutation(allowancesMutations.end(queryClient, profileId));
  const [ended, setEnded] = useState<string | undefined>(undefined);
  const running = (allowances.data ?? []).filter((each) => Date.parse(each.expires_at) > now.getTime());
  return (
    <section aria-labelledby="running-allowances">
      <h2 id="running-allowances">{t('allowances.running')}</h2>
      {ended !== undefined && (
        <p className="notice" role="status">
          {t('allowances.ended', { subject: ended })}
        </p>
      )}
      {end.error !== null && <ProblemDisplay problem={problemOf(end.error)} />}
      {allowances.isPending ? (
        <p aria-busy="true">{t('allowances.loading')}</p>
      ) : allowances.isError ? (
        <ProblemDisplay problem={problemOf(allowances.error)} onRetry={() => void allowances.refetch()} />
      ) : running.length === 0 ? (
        <p>{t('allowances.none')}</p>
      ) : (
        <ul aria-label={t('allowances.running')}>
          {running.map((allowance) => {
            const subject = allowanceSubject(allowance);
            return (
              <li key={allowance.id}>
                {t('allowances.item', {
                  subject,
                  until: formatDateTime(allowance.expires_at),
                  left: formatRelative(allowance.expires_at, now),
                })}{' '}
                <button
                  type="button"
                  disabled={end.isPending}
                  aria-label={t('allowances.endOf', { subject })}
                  onClick={() => {
                    setEnded(undefined);
                    end.mutate(allowance.id, { onSuccess: () => setEnded(subject) });
                  }}
                >
                  {t('allowances.end')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
