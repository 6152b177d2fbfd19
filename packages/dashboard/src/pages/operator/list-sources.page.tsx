import type { CompilerSourceList } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { OperatorFrame } from './operator-frame.js';

type CompilerSource = CompilerSourceList['sources'][number];

const FETCH_STATUS: Record<NonNullable<CompilerSource['last_fetch']>['status'], string> = {
  ok: 'Fetched',
  not_modified: 'Unchanged (304)',
  failed: 'Failed',
};

/** A source's last fetch: when, how it ended, and why it failed or was refused (the last good version stays). */
function LastFetch({ source }: { source: CompilerSource }) {
  const fetch = source.last_fetch;
  if (fetch === null) return <p className="hint">Never fetched.</p>;
  return (
    <>
      <p>
        {FETCH_STATUS[fetch.status]}
        {fetch.http_status === null ? '' : ` (HTTP ${fetch.http_status})`} · <DateTime value={fetch.at} />
        {fetch.failures > 1 ? ` · ${fetch.failures} failures in a row` : ''}
      </p>
      {fetch.error !== null && (
        <p className="error" role="note" aria-label={`Why ${source.name} failed`}>
          {fetch.error}
        </p>
      )}
    </>
  );
}

/**
 * The list compiler's sources (GET /v1/admin/lists/sources): each one's last good compilation and its last
 * fetch, so that an operator sees a source answering an HTML page, shrinking or redirecting somewhere refused.
 */
export default function OperatorListSourcesPage() {
  const sources = useQuery({ queryKey: ['admin', 'list-sources'], queryFn: () => api.admin.lists.sources() });
  return (
    <OperatorFrame title="List sources">
      {sources.isError ? (
        <ProblemDisplay problem={problemOf(sources.error)} onRetry={() => void sources.refetch()} />
      ) : sources.data === undefined ? (
        <p aria-busy="true">Loading the sources…</p>
      ) : (
        <ol className="card-list" aria-label="List sources">
          {sources.data.sources.map((source) => (
            <li key={source.id} aria-label={source.name}>
              <h2>{source.name}</h2>
              <p className="hint">
                <code>{source.id}</code> · lists {source.lists.join(', ')} · {source.format}
              </p>
              <p>
                {source.entries} entries in the last good version
                {source.last_good_at === null ? '' : ' · last good fetch '}
                {source.last_good_at !== null && <DateTime value={source.last_good_at} />}
                {source.invalid > 0 ? ` · ${source.invalid} invalid lines` : ''}
              </p>
              <LastFetch source={source} />
            </li>
          ))}
        </ol>
      )}
    </OperatorFrame>
  );
}
