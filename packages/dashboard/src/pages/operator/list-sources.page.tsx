import type { CompilerSourceList } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { type MessageKey, t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { OperatorFrame } from './operator-frame.js';

type CompilerSource = CompilerSourceList['sources'][number];

const FETCH_STATUS: Record<NonNullable<CompilerSource['last_fetch']>['status'], MessageKey> = {
  ok: 'operator.sources.fetch.ok',
  not_modified: 'operator.sources.fetch.not_modified',
  failed: 'operator.sources.fetch.failed',
};

/** A source's last fetch: when, how it ended, and why it failed or was refused (the last good version stays). */
function LastFetch({ source }: { source: CompilerSource }) {
  const fetch = source.last_fetch;
  if (fetch === null) return <p className="hint">{t('operator.sources.neverFetched')}</p>;
  return (
    <>
      <p>
        {t(FETCH_STATUS[fetch.status])}
        {fetch.http_status === null ? '' : t('operator.sources.httpStatus', { status: fetch.http_status })} ·{' '}
        <DateTime value={fetch.at} />
        {fetch.failures > 1 ? t('operator.sources.failures', { count: fetch.failures }) : ''}
      </p>
      {fetch.error !== null && (
        <p className="error" role="note" aria-label={t('operator.sources.whyFailed', { name: source.name })}>
          {fetch.error}
        </p>
      )}
    </>
  );
}

/** One source: what it feeds, its last good compilation and its last fetch. */
function SourceCard({ source }: { source: CompilerSource }) {
  return (
    <li aria-label={source.name}>
      <h2>{source.name}</h2>
      <p className="hint">
        <code>{source.id}</code> · {t('operator.sources.lists', { lists: source.lists.map(String) })} ·{' '}
        {source.format}
      </p>
      <p>
        {t('operator.sources.entries', { count: source.entries })}
        {source.last_good_at !== null && (
          <>
            {t('operator.sources.lastGood')}
            <DateTime value={source.last_good_at} />
          </>
        )}
        {source.invalid > 0 ? t('operator.sources.invalid', { count: source.invalid }) : ''}
      </p>
      <LastFetch source={source} />
    </li>
  );
}

/**
 * The list compiler's sources (GET /v1/admin/lists/sources): each one's last good compilation and its last
 * fetch, so that an operator sees a source answering an HTML page, shrinking or redirecting somewhere refused.
 */
export default function OperatorListSourcesPage() {
  const sources = useQuery({ queryKey: adminKeys.listSources(), queryFn: () => api.admin.lists.sources() });
  return (
    <OperatorFrame title={t('operator.sources.title')}>
      {sources.isError ? (
        <ProblemDisplay problem={problemOf(sources.error)} onRetry={() => void sources.refetch()} />
      ) : sources.data === undefined ? (
        <p aria-busy="true">{t('operator.sources.loading')}</p>
      ) : (
        <ol className="card-list" aria-label={t('operator.sources.list')}>
          {sources.data.sources.map((source) => (
            <SourceCard key={source.id} source={source} />
          ))}
        </ol>
      )}
    </OperatorFrame>
  );
}
