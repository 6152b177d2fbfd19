import type { TriagedListReport } from '@svc/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { FieldIdScope } from '../../forms/field-id.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

const STATUSES = {
  open: t('operator.reports.status.open'),
  accepted: t('operator.reports.status.accepted'),
  rejected: t('operator.reports.status.rejected'),
} as const;
const DECISIONS = { accepted: t('operator.reports.accept'), rejected: t('operator.reports.reject') } as const;
const KINDS: Readonly<Record<string, string>> = {
  false_positive: t('operator.reports.kind.false_positive'),
  false_negative: t('operator.reports.kind.false_negative'),
};
const LABELS = {
  status: t('operator.reports.decision'),
  resolution_note: t('operator.reports.resolutionNote'),
};

/** Accepting or rejecting one open report, with the note the reporter is emailed. */
function Decision({ report }: { report: TriagedListReport }) {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) =>
      api.admin.listReports.decide(report.id, {
        status: knownValue(DECISIONS, values.text('status')) ?? 'rejected',
        resolution_note: values.text('resolution_note'),
      }),
    { onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.listReports() }) },
  );
  return (
    <FieldIdScope.Provider value={`${report.id}-`}>
      <form
        onSubmit={form.onSubmit}
        noValidate
        aria-label={t('operator.reports.decideOn', { domain: report.domain })}
      >
        {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
        <ChoiceField
          name="status"
          legend={LABELS.status}
          defaultValue="accepted"
          choices={[
            { value: 'accepted', label: DECISIONS.accepted, hint: t('operator.reports.accept.hint') },
            { value: 'rejected', label: DECISIONS.rejected },
          ]}
          error={form.errorOf('status')}
        />
        <TextareaField
          name="resolution_note"
          label={LABELS.resolution_note}
          hint={t('operator.reports.resolutionNote.hint')}
          rows={2}
          error={form.errorOf('resolution_note')}
        />
        <SubmitButton pending={form.pending} busyText={t('operator.reports.recording')}>
          {t('operator.reports.record')}
        </SubmitButton>
      </form>
    </FieldIdScope.Provider>
  );
}

/** One report: the domain on its list, what was reported, by whom and when, and its outcome or decision. */
function ReportCard({ report, listName, now }: { report: TriagedListReport; listName: string; now: number }) {
  const overdue = report.status === 'open' && Date.parse(report.triage_due_at) < now;
  return (
    <li aria-label={report.domain}>
      <h2 className="card-title">
        <code>{report.domain}</code>
        {t('operator.reports.on')}
        {listName}
      </h2>
      <dl className="facts">
        <dt>{t('operator.reports.kind')}</dt>
        <dd>{KINDS[report.kind] ?? report.kind}</dd>
        {report.note !== '' && (
          <>
            <dt>{t('operator.reports.note')}</dt>
            <dd>{report.note}</dd>
          </>
        )}
        <dt>{t('operator.reports.listVersion')}</dt>
        <dd>{report.list_version ?? t('operator.unknown')}</dd>
        <dt>{t('operator.reports.profile')}</dt>
        <dd>
          <code>{report.profile_id}</code>
          {t('operator.reports.ofOrganisation')}
          <code>{report.org_id}</code>
        </dd>
        <dt>{t('operator.reports.reported')}</dt>
        <dd>
          <DateTime value={report.created_at} />
        </dd>
        <dt>{t('operator.reports.due')}</dt>
        <dd className={overdue ? 'overdue' : undefined}>
          <DateTime value={report.triage_due_at} />
          {overdue ? t('operator.reports.overdue') : ''}
        </dd>
        {report.status !== 'open' && (
          <>
            <dt>{t('operator.reports.outcome')}</dt>
            <dd>
              {STATUSES[report.status]} <DateTime value={report.resolved_at} />: {report.resolution_note}
            </dd>
          </>
        )}
      </dl>
      {report.status === 'open' && <Decision report={report} />}
    </li>
  );
}

/** The list-report triage queue: oldest due first, each open report decided with a note. */
export default function ListReportsTriagePage() {
  const [, navigate] = useLocation();
  const status = knownValue(STATUSES, new URLSearchParams(useSearch()).get('status') ?? 'open') ?? 'open';
  const catalogue = useQuery(catalogueQueries.lists());
  const reports = usePagedList(adminKeys.listReportList(status), (cursor) =>
    api.admin.listReports.list({ status, limit: 50 }).page(cursor),
  );
  const listName = (id: number) =>
    catalogue.data?.lists.find((list) => list.id === id)?.name ?? t('operator.reports.listName', { id });
  const now = Date.now();
  return (
    <OperatorFrame title={t('operator.reports.title')}>
      <div className="field">
        <label htmlFor="report-status">{t('operator.reports.show')}</label>
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
      <PagedList list={reports} empty={t('operator.reports.none')} more={t('operator.reports.more')}>
        {(items) => (
          <ol className="card-list" aria-label={t('operator.reports.list')}>
            {items.map((report) => (
              <ReportCard key={report.id} report={report} listName={listName(report.list_id)} now={now} />
            ))}
          </ol>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
