import type { ReactNode } from 'react';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** A panel's query as the panel needs it (a TanStack query result narrowed to what is shown). */
export interface PanelQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * One panel of the analytics page, with its own loading state and its own problem, so that one refused shape
 * (a range too long for it, a node too old) does not hide the others.
 */
export function AnalyticsPanel<T>({
  title,
  query,
  children,
  wide = false,
}: {
  title: string;
  query: PanelQuery<T>;
  children: (data: T) => ReactNode;
  wide?: boolean;
}) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className={wide ? 'panel panel-wide' : 'panel'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {query.isError ? (
        // The detail names the parameter the API refused; the page has no field of that name to point at.
        <ProblemDisplay
          problem={{ ...problemOf(query.error), fieldErrors: [] }}
          onRetry={() => void query.refetch()}
        />
      ) : query.data === undefined ? (
        <p aria-busy="true">{t('common.loading')}</p>
      ) : (
        children(query.data)
      )}
    </section>
  );
}
