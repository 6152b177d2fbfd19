import type { SourceBlock } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { OperatorFrame } from './operator-frame.js';
import { instantValue, listValue } from './operator-values.js';
import { PagedList, usePagedList } from './paged-list.js';

const FILTERS = { live: 'Live', expired: 'Expired', removed: 'Removed' } as const;
const LABELS = {
  cidr: 'Source prefix',
  reason: 'Reason',
  pops: 'PoPs',
  jurisdictions: 'Jurisdictions',
  expires_at: 'Expires',
};

function CreateSourceBlock() {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) =>
      api.admin.sourceBlocks.create({
        cidr: values.text('cidr').trim(),
        reason: values.text('reason').trim(),
        pops: listValue(values, 'pops'),
        jurisdictions: listValue(values, 'jurisdictions'),
        expires_at: instantValue(values, 'expires_at') ?? '',
      }),
    {
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'source-blocks'] }),
      resetOnSuccess: true,
    },
  );
  return (
    <section aria-labelledby="create-source-block">
      <h2 id="create-source-block">Block an abusive source</h2>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          Blocked {form.result.block.cidr}: operator sources file version {form.result.file_version}.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="cidr"
          label={LABELS.cidr}
          hint="An IPv4 or IPv6 prefix, 203.0.113.0/24; stored masked."
          spellCheck={false}
          error={form.errorOf('cidr')}
        />
        <TextField name="reason" label={LABELS.reason} error={form.errorOf('reason')} />
        <TextField
          name="pops"
          label={LABELS.pops}
          hint="PoP ids separated by commas; empty: every PoP."
          error={form.errorOf('pops')}
        />
        <TextField
          name="jurisdictions"
          label={LABELS.jurisdictions}
          hint="Country codes separated by commas; empty: everywhere."
          error={form.errorOf('jurisdictions')}
        />
        <TextField
          name="expires_at"
          label={LABELS.expires_at}
          hint="Required: a source block always expires."
          type="datetime-local"
          error={form.errorOf('expires_at')}
        />
        <SubmitButton pending={form.pending} busyText="Blocking…">
          Block the source
        </SubmitButton>
      </form>
    </section>
  );
}

function SourceBlockRow({ block }: { block: SourceBlock }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.admin.sourceBlocks.remove(block.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'source-blocks'] }),
  });
  return (
    <tr>
      <th scope="row">
        <code>{block.cidr}</code>
      </th>
      <td>{block.reason}</td>
      <td>{[...block.pops, ...block.jurisdictions].join(', ') || 'Everywhere'}</td>
      <td>
        <DateTime value={block.expires_at} />
      </td>
      <td>
        <DateTime value={block.created_at} /> by {block.created_by}
      </td>
      <td>
        {block.removed_at !== null ? (
          <>
            Removed <DateTime value={block.removed_at} />
          </>
        ) : (
          <ConfirmedAction
            label="Remove"
            ariaLabel={`Remove ${block.cidr}`}
            confirmLabel={`Yes, remove ${block.cidr}`}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
        {remove.error !== null && <ProblemDisplay problem={problemOf(remove.error)} />}
      </td>
    </tr>
  );
}

/** Abusive-source blocks: create (always with an expiry), list by state, remove. */
export default function SourceBlocksPage() {
  const [, navigate] = useLocation();
  const status = knownValue(FILTERS, new URLSearchParams(useSearch()).get('status') ?? 'live') ?? 'live';
  const blocks = usePagedList(['admin', 'source-blocks', status], (cursor) =>
    api.admin.sourceBlocks.list({ status, limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Source blocks">
      <CreateSourceBlock />
      <section aria-labelledby="source-blocks-list">
        <h2 id="source-blocks-list">Blocked sources</h2>
        <div className="field">
          <label htmlFor="source-block-status">Show</label>
          <select
            id="source-block-status"
            value={status}
            onChange={(event) => navigate(`/operator/source-blocks?status=${event.target.value}`)}
          >
            {Object.entries(FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <PagedList list={blocks} empty="No source block in this state." more="Show more source blocks">
          {(items) => (
            <TableScroll label={`${FILTERS[status]} source blocks`}>
              <table>
                <caption>{FILTERS[status]} source blocks, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Prefix</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Created</th>
                    <th scope="col">Remove</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((block) => (
                    <SourceBlockRow key={block.id} block={block} />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </PagedList>
      </section>
    </OperatorFrame>
  );
}
