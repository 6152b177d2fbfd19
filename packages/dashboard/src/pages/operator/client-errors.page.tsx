import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { t } from '../../i18n/t.js';
import { ActorName } from './actor-name.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** Script errors and failed API calls the dashboard reported in the last 30 days, newest first. */
export default function OperatorClientErrorsPage() {
  const errors = usePagedList(adminKeys.clientErrors(), (cursor) =>
    api.admin.clientErrors.list({ limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title={t('operator.clientErrors.title')}>
      <PagedList list={errors} empty={t('operator.clientErrors.none')} more={t('operator.clientErrors.more')}>
        {(items) => (
          <ol className="card-list" aria-label={t('operator.clientErrors.list')}>
            {items.map((error) => (
              <li key={error.id}>
                <p>
                  <code>{error.message}</code>
                </p>
                <p className="hint">
                  {error.kind ?? t('operator.clientErrors.kind')}
                  {error.name === null ? '' : ` (${error.name})`} · <DateTime value={error.created_at} /> ·{' '}
                  <ActorName actor={error.actor} />
                  {error.url === null ? '' : t('operator.clientErrors.at', { url: error.url })}
                  {error.dashboard_version === null
                    ? ''
                    : t('operator.clientErrors.version', { version: error.dashboard_version })}
                </p>
                {error.user_agent !== null && <p className="hint">{error.user_agent}</p>}
                {error.stack !== null && error.stack !== '' && (
                  <details>
                    <summary>{t('operator.clientErrors.stack', { id: error.id })}</summary>
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
