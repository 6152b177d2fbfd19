import type { QueryKey } from '@tanstack/react-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ActorName } from './actor-name.js';

/** When an operator entry was created, and by whom (an email, never a raw account id). */
export function EntryCreated({ at, by }: { at: string; by: string }) {
  return (
    <>
      <DateTime value={at} />
      {t('operator.entry.createdBy')}
      <ActorName actor={by} />
    </>
  );
}

/**
 * An operator entry's removal, asked first, then the list refreshed; once removed, when. `outcome` says what the
 * removal changed (the file version), beside the button where focus returns.
 */
export function EntryRemoval<T>({
  what,
  removedAt,
  remove,
  invalidates,
  outcome,
}: {
  /** The entry as the operator knows it: its pattern or prefix. */
  what: string;
  removedAt: string | null;
  remove: () => Promise<T>;
  invalidates: QueryKey;
  outcome?: (result: T) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invalidates }),
  });
  return (
    <>
      {removedAt !== null ? (
        <>
          {t('operator.entry.removedAt')}
          <DateTime value={removedAt} />
        </>
      ) : (
        <ConfirmedAction
          label={t('operator.entry.remove')}
          ariaLabel={t('operator.entry.remove.aria', { what })}
          confirmLabel={t('operator.entry.remove.confirm', { what })}
          pending={removal.isPending}
          onConfirm={() => removal.mutate()}
        />
      )}
      {removal.error !== null && <ProblemDisplay problem={problemOf(removal.error)} />}
      {removal.data !== undefined && outcome !== undefined && <p role="status">{outcome(removal.data)}</p>}
    </>
  );
}
