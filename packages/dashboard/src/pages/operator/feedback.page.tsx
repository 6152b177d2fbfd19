import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { t } from '../../i18n/t.js';
import { ActorName } from './actor-name.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** Feedback sent from the dashboard in the last 365 days, newest first. */
export default function OperatorFeedbackPage() {
  const feedback = usePagedList(adminKeys.feedback(), (cursor) =>
    api.admin.feedback.list({ limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title={t('operator.feedback.title')}>
      <PagedList list={feedback} empty={t('operator.feedback.none')} more={t('operator.feedback.more')}>
        {(items) => (
          <ol className="card-list" aria-label={t('operator.feedback.list')}>
            {items.map((entry) => (
              <li key={entry.id}>
                <p className="feedback-message">{entry.message}</p>
                <p className="hint">
                  {entry.rating === null
                    ? t('operator.feedback.noRating')
                    : t('operator.feedback.rated', { rating: entry.rating })}{' '}
                  · <DateTime value={entry.created_at} /> · <ActorName actor={entry.actor} />
                  {t('operator.feedback.of')}
                  <code>{entry.org_id}</code>
                  {entry.url === null ? '' : t('operator.feedback.from', { url: entry.url })}
                </p>
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
