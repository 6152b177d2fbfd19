import type { Blocklist } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { api } from '../../api/client.js';
import { metaQueries } from '../../api/meta.queries.js';
import { profilesInvalidations } from '../../api/profiles.queries.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { allowDomain } from './allow-domain.js';
import { qtypeName } from './log-filters.js';
import { reasonLabel, statusLabel, transportLabel } from './log-labels.js';
import type { LogRow } from './log-row.js';
import { fullTime } from './log-time.js';

const REASON_CODES: Readonly<Record<string, string>> = {
  list: 'A blocklist',
  rule: 'One of your rules',
  rewrite: 'One of your rewrites',
  none: 'Nothing: the query was not filtered',
  'operator:legal_order': 'The operator, under a legal order',
  'operator:abuse': 'The operator, to stop abuse',
  'operator:csam': 'The operator: child sexual abuse material',
};
const RCODES: Readonly<Record<number, string>> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
};

/** Reports the list that blocked `row` as wrong about its domain (a list report, triaged by an operator). */
function ReportWronglyBlocked({
  profileId,
  row,
  list,
}: {
  profileId: string;
  row: LogRow;
  list: Blocklist | undefined;
}) {
  const [open, setOpen] = useState(false);
  const form = useApiForm((values) =>
    api.profiles.listReports.create(profileId, {
      domain: row.qname,
      list_id: row.reason_list_id ?? 0,
      kind: 'false_positive',
      note: values.text('note'),
    }),
  );
  if (form.result !== undefined && form.problem === null)
    return (
      <p className="notice" role="status">
        Reported: {list?.name ?? 'the list'} blocking {row.qname}. An operator reviews it within two business
        days and you get an email with the outcome.
      </p>
    );
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Report this as wrongly blocked
      </button>
    );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Report this as wrongly blocked">
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ note: 'What is wrong' }} focus />
      )}
      <p>
        Tell the operators that {list?.name ?? `list ${row.reason_list_id}`} should not block{' '}
        <code>{row.qname}</code>.
      </p>
      <TextareaField
        name="note"
        label="What is wrong"
        hint="Optional: what the site is and what broke (at most 500 characters)."
        rows={3}
        error={form.errorOf('note')}
      />
      <div className="actions">
        <SubmitButton pending={form.pending} busyText="Sending…">
          Send the report
        </SubmitButton>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Adds the row's domain to the profile's allowed names. */
function AllowThisDomain({ profileId, domain }: { profileId: string; domain: string }) {
  const queryClient = useQueryClient();
  const allow = useMutation({
    mutationFn: () => allowDomain(profileId, domain),
    onSuccess: (outcome) => {
      if (outcome.added)
        profilesInvalidations.rulesSaved(queryClient, profileId, {
          rules: outcome.rules,
          etag: outcome.etag,
        });
      else profilesInvalidations.partSaved(queryClient, profileId);
    },
  });
  if (allow.data !== undefined)
    return (
      <p className="notice" role="status">
        {allow.data.added ? `${domain} is allowed now` : `${domain} was already allowed`}: see{' '}
        <Link href={`/profiles/${profileId}/rules`}>the rules</Link>.
      </p>
    );
  return (
    <>
      {allow.error !== null && (
        <ProblemDisplay problem={problemOf(allow.error)} onRetry={() => allow.mutate()} />
      )}
      <button
        type="button"
        onClick={() => allow.mutate()}
        disabled={allow.isPending}
        aria-busy={allow.isPending}
      >
        Allow this domain
      </button>
    </>
  );
}

/** Everything about one query: why it was decided so, the list, the Extended DNS Error and the answers. */
export function LogRowDetails({
  profileId,
  row,
  onClose,
}: {
  profileId: string;
  row: LogRow;
  onClose: () => void;
}) {
  const pops = useQuery(metaQueries.pops());
  const catalogue = useQuery({
    ...catalogueQueries.lists(),
    staleTime: 300_000,
  });
  const list =
    row.reason_list_id === null
      ? undefined
      : catalogue.data?.lists.find((each) => each.id === row.reason_list_id);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const blocked = row.status === 'blocked';
  return (
    <section className="log-details" aria-labelledby="log-details-title">
      <h2 id="log-details-title" tabIndex={-1} ref={heading}>
        {row.qname === '' ? 'A query' : row.qname}
      </h2>
      <dl className="facts">
        <dt>Time</dt>
        <dd>
          <time dateTime={row.ts}>{fullTime(row.ts)}</time>
        </dd>
        <dt>Status</dt>
        <dd>
          {statusLabel(row.status)} ({RCODES[row.rcode] ?? `rcode ${row.rcode}`})
        </dd>
        <dt>Decided by</dt>
        <dd>{REASON_CODES[row.reason_code] ?? row.reason_code}</dd>
        {row.reason !== '' && (
          <>
            <dt>Reason</dt>
            <dd>{reasonLabel(row)}</dd>
          </>
        )}
        {row.reason_list_id !== null && (
          <>
            <dt>List</dt>
            <dd>
              {list?.name ?? 'A list'} (id {row.reason_list_id})
            </dd>
          </>
        )}
        {row.reason_rule !== '' && (
          <>
            <dt>Rule</dt>
            <dd>
              <code>{row.reason_rule}</code>
            </dd>
          </>
        )}
        <dt>Extended DNS Error</dt>
        <dd>
          {row.ede_code === 0
            ? 'none'
            : `${row.ede_code} (${row.ede_code === 15 ? 'Blocked' : row.ede_code === 17 ? 'Filtered' : 'other'})${row.ede_text === '' ? '' : `: ${row.ede_text}`}`}
        </dd>
        <dt>Answer addresses</dt>
        <dd>{row.answer_ips.length === 0 ? 'none' : row.answer_ips.join(', ')}</dd>
        <dt>Type</dt>
        <dd>{qtypeName(row.qtype)}</dd>
        <dt>Device</dt>
        <dd>
          {row.device_name === '' ? row.device_id || 'unknown' : row.device_name}
          {row.device_id !== '' && row.device_name !== '' ? ` (${row.device_id})` : ''}
        </dd>
        <dt>Client</dt>
        <dd>{row.client_ip === '' ? 'not logged' : row.client_ip}</dd>
        <dt>Transport</dt>
        <dd>{transportLabel(row.transport)}</dd>
        <dt>Answered by</dt>
        <dd>
          {row.source === 'node'
            ? t('logs.yourNode')
            : t('logs.pop', { name: pops.data?.pops.find((pop) => pop.id === row.pop)?.name ?? row.pop })}
          , {Math.round(row.latency_us / 100) / 10} ms
          {row.cache_hit ? ', from the cache' : ''}
          {row.dnssec_validated ? ', DNSSEC validated' : ''}
        </dd>
      </dl>
      <div className="actions">
        {blocked && row.qname !== '' && !row.reason_code.startsWith('operator:') && (
          <AllowThisDomain profileId={profileId} domain={row.qname} />
        )}
        {blocked && row.reason_code === 'list' && row.reason_list_id !== null && row.qname !== '' && (
          <ReportWronglyBlocked profileId={profileId} row={row} list={list} />
        )}
        <button type="button" onClick={onClose}>
          Close the details
        </button>
      </div>
    </section>
  );
}
