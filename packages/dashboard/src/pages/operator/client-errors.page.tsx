import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** Script errors and failed API calls the dashboard reported in the last 30 days, newest first. */
export default function OperatorClientErrorsPage() {
  const errors = usePagedList(['admin', 'client-errors'], (cursor) =>
    api.admin.clientErrors.list({ limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Client errors">
      <PagedList list={errors} empty="No error reported in the last 30 days." more="Show older errors">
        {(items) => (
          <ol className="card-list" aria-label="Client errors, newest first">
            {items.map((error) => (
              <li key={error.id}>
                <p>
                  <code>{error.message}</code>
                </p>
                <p className="hint">
                  {error.kind ?? 'error'}
                  {error.name === null ? '' : ` (${error.name})`} · <DateTime value={error.created_at} /> ·{' '}
                  {error.actor}
                  {error.url === null ? '' : ` · at ${error.url}`}
                  {error.dashboard_version === null ? '' : ` · dashboard ${error.dashboard_version}`}
                </p>
                {error.user_agent !== null && <p className="hint">{error.user_agent}</p>}
                {error.stack !== null && error.stack !== '' && (
                  <details>
                    <summary>Stack of error {error.id}</summary>
                    <pre className="secret">{error.stack}</pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
