import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** Feedback sent from the dashboard in the last 365 days, newest first. */
export default function OperatorFeedbackPage() {
  const feedback = usePagedList(['admin', 'feedback'], (cursor) =>
    api.admin.feedback.list({ limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Feedback">
      <PagedList list={feedback} empty="No feedback in the last year." more="Show older feedback">
        {(items) => (
          <ol className="card-list" aria-label="Feedback, newest first">
            {items.map((entry) => (
              <li key={entry.id}>
                <p className="feedback-message">{entry.message}</p>
                <p className="hint">
                  {entry.rating === null ? 'No rating' : `Rated ${entry.rating} of 5`} ·{' '}
                  <DateTime value={entry.created_at} /> · {entry.actor} of <code>{entry.org_id}</code>
                  {entry.url === null ? '' : ` · from ${entry.url}`}
                </p>
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
