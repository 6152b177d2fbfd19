import type { TriagedListReport } from '@svc/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

const STATUSES = { open: 'Open', accepted: 'Accepted', rejected: 'Rejected' } as const;
const DECISIONS = { accepted: 'Accept', rejected: 'Reject' } as const;
const KINDS: Readonly<Record<string, string>> = {
  false_positive: 'Blocked but should not be',
  false_negative: 'Should be blocked but is not',
};
const LABELS = { status: 'Decision', resolution_note: 'Note to the reporter' };

/** Accepting or rejecting one open report, with the note the reporter is emailed. */
function Decision({ report }: { report: TriagedListReport }) {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) =>
      api.admin.listReports.decide(report.id, {
        status: knownValue(DECISIONS, values.text('status')) ?? 'rejected',
        resolution_note: values.text('resolution_note'),
      }),
    { onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'list-reports'] }) },
  );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={`Decide on ${report.domain}`}>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      <ChoiceField
        name="status"
        legend={LABELS.status}
        defaultValue="accepted"
        choices={[
          {
            value: 'accepted',
            label: 'Accept',
            hint: 'A candidate for the curated lists, reviewed before any change.',
          },
          { value: 'rejected', label: 'Reject' },
        ]}
        error={form.errorOf('status')}
      />
      <TextareaField
        name="resolution_note"
        label={LABELS.resolution_note}
        hint="Emailed to the reporter with the outcome."
        rows={2}
        error={form.errorOf('resolution_note')}
      />
      <SubmitButton pending={form.pending} busyText="Recording…">
        Record the decision
      </SubmitButton>
    </form>
  );
}

/** The list-report triage queue: oldest due first, each open report decided with a note. */
export default function ListReportsTriagePage() {
  const [, navigate] = useLocation();
  const status = knownValue(STATUSES, new URLSearchParams(useSearch()).get('status') ?? 'open') ?? 'open';
  const catalogue = useQuery({
    queryKey: ['catalogue', 'lists'],
    queryFn: () => api.catalogue.lists(),
    staleTime: 300_000,
  });
  const reports = usePagedList(['admin', 'list-reports', status], (cursor) =>
    api.admin.listReports.list({ status, limit: 50 }).page(cursor),
  );
  const listName = (id: number) => catalogue.data?.lists.find((list) => list.id === id)?.name ?? `List ${id}`;
  const now = Date.now();
  return (
    <OperatorFrame title="List reports">
      <div className="field">
        <label htmlFor="report-status">Show reports</label>
        <select
          id="report-status"
          value={status}
          onChange={(event) => navigate(`/operator?status=${event.target.value}`)}
        >
          {Object.entries(STATUSES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <PagedList list={reports} empty="No report in this state." more="Show more reports">
        {(items) => (
          <ol className="card-list" aria-label="Reports, oldest due first">
            {items.map((report) => {
              const overdue = report.status === 'open' && Date.parse(report.triage_due_at) < now;
              return (
                <li key={report.id} aria-label={report.domain}>
                  <h2 className="card-title">
                    <code>{report.domain}</code> on {listName(report.list_id)}
                  </h2>
                  <dl className="facts">
                    <dt>Report</dt>
                    <dd>{KINDS[report.kind] ?? report.kind}</dd>
                    {report.note !== '' && (
                      <>
                        <dt>Reporter’s note</dt>
                        <dd>{report.note}</dd>
                      </>
                    )}
                    <dt>List version</dt>
                    <dd>{report.list_version ?? 'unknown'}</dd>
                    <dt>Profile</dt>
                    <dd>
                      <code>{report.profile_id}</code> of organisation <code>{report.org_id}</code>
                    </dd>
                    <dt>Reported</dt>
                    <dd>
                      <DateTime value={report.created_at} />
                    </dd>
                    <dt>Due</dt>
                    <dd className={overdue ? 'overdue' : undefined}>
                      <DateTime value={report.triage_due_at} />
                      {overdue ? ' (overdue)' : ''}
                    </dd>
                    {report.status !== 'open' && (
                      <>
                        <dt>Outcome</dt>
                        <dd>
                          {STATUSES[report.status]} <DateTime value={report.resolved_at} />:{' '}
                          {report.resolution_note}
                        </dd>
                      </>
                    )}
                  </dl>
                  {report.status === 'open' && <Decision report={report} />}
                </li>
              );
            })}
          </ol>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
