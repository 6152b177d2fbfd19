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
import { formatLatency } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AllowancePresets } from '../profiles/allowance-presets.js';
import { allowDomain } from './allow-domain.js';
import { qtypeName } from './log-filters.js';
import { policyLabel, reasonLabel, statusLabel, transportLabel } from './log-labels.js';
import type { LogRow } from './log-row.js';
import { fullTime } from './log-time.js';

/** Who decided a query, by its `reason_code`, in words. */
function decidedBy(code: string): string {
  switch (code) {
    case 'list':
      return t('logs.decided.list');
    case 'rule':
      return t('logs.decided.rule');
    case 'rewrite':
      return t('logs.decided.rewrite');
    case 'none':
      return t('logs.decided.none');
    case 'operator:legal_order':
      return t('logs.decided.legal_order');
    case 'operator:abuse':
      return t('logs.decided.abuse');
    case 'operator:csam':
      return t('logs.decided.csam');
    default:
      return code.startsWith('operator:') ? t('logs.decided.operator') : code;
  }
}
/** The DNS response codes by their names in RFC 1035 and RFC 2136, which are the words DNS people use. */
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
        {t('logs.report.sent', { list: list?.name ?? t('logs.report.theList'), domain: row.qname })}
      </p>
    );
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t('logs.report.button')}
      </button>
    );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={t('logs.report.button')}>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ note: t('logs.report.note') }} focus />
      )}
      <p>
        {t('logs.report.intro', {
          list: list?.name ?? t('logs.report.listById', { id: row.reason_list_id }),
        })}
        <code>{row.qname}</code>.
      </p>
      <TextareaField
        name="note"
        label={t('logs.report.note')}
        hint={t('logs.report.note.hint')}
        rows={3}
        error={form.errorOf('note')}
      />
      <div className="actions">
        <SubmitButton pending={form.pending} busyText={t('logs.report.sending')}>
          {t('logs.report.send')}
        </SubmitButton>
        <button type="button" onClick={() => setOpen(false)}>
          {t('common.cancel')}
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
        {allow.data.added ? t('logs.allow.added', { domain }) : t('logs.allow.already', { domain })}
        <Link href={`/profiles/${profileId}/rules`}>{t('logs.allow.rules')}</Link>.
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
        {t('logs.allow.button')}
      </button>
    </>
  );
}

/** The Extended DNS Error of a row in words. */
function edeText(row: LogRow): string {
  if (row.ede_code === 0) return t('logs.details.none');
  const kind =
    row.ede_code === 15
      ? t('logs.details.ede.blocked')
      : row.ede_code === 17
        ? t('logs.details.ede.filtered')
        : t('logs.details.ede.other');
  return t('logs.details.edeValue', { code: row.ede_code, kind, text: row.ede_text });
}

/** The device a query came from: its name, with its id when both are known. */
function deviceText(row: LogRow): string {
  if (row.device_name === '') return row.device_id || t('logs.details.deviceUnknown');
  return row.device_id === '' ? row.device_name : `${row.device_name} (${row.device_id})`;
}

/** Who answered the query (a PoP by its name, or the profile's node), how fast, and how. */
function AnsweredBy({ row }: { row: LogRow }) {
  const pops = useQuery(metaQueries.pops());
  const who =
    row.source === 'node'
      ? t('logs.yourNode')
      : t('logs.pop', { name: pops.data?.pops.find((pop) => pop.id === row.pop)?.name ?? row.pop });
  const parts = [who, formatLatency(row.latency_us)];
  if (row.cache_hit) parts.push(t('logs.details.fromCache'));
  if (row.dnssec_validated) parts.push(t('logs.details.dnssec'));
  return <>{t('logs.details.answeredByValue', { parts })}</>;
}

/** The facts of one query, each named. */
function QueryFacts({ row, list }: { row: LogRow; list: Blocklist | undefined }) {
  return (
    <dl className="facts">
      <dt>{t('logs.details.time')}</dt>
      <dd>
        <time dateTime={row.ts}>{fullTime(row.ts)}</time>
      </dd>
      <dt>{t('logs.details.status')}</dt>
      <dd>
        {t('logs.details.statusWithCode', {
          status: statusLabel(row.status),
          rcode: RCODES[row.rcode] ?? t('logs.details.rcode', { code: row.rcode }),
        })}
      </dd>
      <dt>{t('logs.details.decidedBy')}</dt>
      <dd>{policyLabel(row.decided_by) ?? decidedBy(row.reason_code)}</dd>
      {row.reason !== '' && (
        <>
          <dt>{t('logs.details.reason')}</dt>
          <dd>{reasonLabel(row)}</dd>
        </>
      )}
      {row.reason_list_id !== null && (
        <>
          <dt>{t('logs.details.list')}</dt>
          <dd>
            {t('logs.details.listWithId', {
              name: list?.name ?? t('logs.details.aList'),
              id: row.reason_list_id,
            })}
          </dd>
        </>
      )}
      {row.reason_rule !== '' && (
        <>
          <dt>{t('logs.details.rule')}</dt>
          <dd>
            <code>{row.reason_rule}</code>
          </dd>
        </>
      )}
      <dt>{t('logs.details.ede')}</dt>
      <dd>{edeText(row)}</dd>
      <dt>{t('logs.details.answers')}</dt>
      <dd>{row.answer_ips.length === 0 ? t('logs.details.none') : row.answer_ips.join(', ')}</dd>
      <dt>{t('logs.details.type')}</dt>
      <dd>{qtypeName(row.qtype)}</dd>
      <dt>{t('logs.details.device')}</dt>
      <dd>{deviceText(row)}</dd>
      <dt>{t('logs.details.client')}</dt>
      <dd>{row.client_ip === '' ? t('logs.details.notLogged') : row.client_ip}</dd>
      <dt>{t('logs.details.transport')}</dt>
      <dd>{transportLabel(row.transport)}</dd>
      <dt>{t('logs.details.answeredBy')}</dt>
      <dd>
        <AnsweredBy row={row} />
      </dd>
    </dl>
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
        {row.qname === '' ? t('logs.details.aQuery') : row.qname}
      </h2>
      <QueryFacts row={row} list={list} />
      <div className="actions">
        {blocked && row.qname !== '' && !row.reason_code.startsWith('operator:') && (
          <AllowThisDomain profileId={profileId} domain={row.qname} />
        )}
        {blocked && row.qname !== '' && !row.reason_code.startsWith('operator:') && (
          <AllowancePresets
            profileId={profileId}
            target={{ domain: row.qname }}
            legend={t('allowances.allowFor')}
            subject={row.qname}
          />
        )}
        {blocked && row.reason_code === 'list' && row.reason_list_id !== null && row.qname !== '' && (
          <ReportWronglyBlocked profileId={profileId} row={row} list={list} />
        )}
        <button type="button" onClick={onClose}>
          {t('logs.details.close')}
        </button>
      </div>
    </section>
  );
}
