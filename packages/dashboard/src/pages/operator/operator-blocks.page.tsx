import type { OperatorBlock } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { fieldId } from '../../forms/field-id.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { OperatorFrame } from './operator-frame.js';
import { instantValue, listValue } from './operator-values.js';
import { PagedList, usePagedList } from './paged-list.js';

const REASONS = { legal_order: 'Legal order', abuse: 'Abuse', csam: 'Child sexual abuse material' } as const;
const FILTERS = { live: 'Live', expired: 'Expired', removed: 'Removed' } as const;
const LABELS = {
  pattern: 'Pattern',
  reason_code: 'Reason',
  public_ref: 'Public reference',
  note: 'Internal note',
  pops: 'PoPs',
  jurisdictions: 'Jurisdictions',
  expires_at: 'Expires',
};

/** A scope as read: every PoP or jurisdiction when empty. */
function scope(pops: readonly string[], jurisdictions: readonly string[]): string {
  const parts = [
    pops.length > 0 ? `PoPs ${pops.join(', ')}` : '',
    jurisdictions.length > 0 ? jurisdictions.join(', ') : '',
  ];
  return parts.filter((part) => part !== '').join('; ') || 'Everywhere';
}

function CreateBlock() {
  const queryClient = useQueryClient();
  const pops = useQuery({ queryKey: ['meta', 'pops'], queryFn: () => api.meta.pops(), staleTime: 300_000 });
  const form = useApiForm(
    (values) => {
      const expires = instantValue(values, 'expires_at');
      return api.admin.operatorBlocks.create({
        pattern: values.text('pattern').trim(),
        reason_code: knownValue(REASONS, values.text('reason_code')) ?? 'abuse',
        ...(values.optionalText('public_ref') === undefined
          ? {}
          : { public_ref: values.text('public_ref').trim() }),
        ...(values.optionalText('note') === undefined ? {} : { note: values.text('note') }),
        pops: values.all('pops'),
        jurisdictions: listValue(values, 'jurisdictions'),
        ...(expires === undefined ? {} : { expires_at: expires }),
      });
    },
    {
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'operator-blocks'] }),
      resetOnSuccess: true,
    },
  );
  return (
    <section aria-labelledby="create-block">
      <h2 id="create-block">Block a domain</h2>
      <p>
        Every resolver in scope answers the pattern NXDOMAIN with Extended DNS Error 15, whatever the profile.
      </p>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          Blocked {form.result.block.pattern}: operator blocks file version {form.result.file_version}.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="pattern"
          label={LABELS.pattern}
          hint="As in profile rules: example.com (and below), =example.com (exactly), *.example.com (only below)."
          spellCheck={false}
          error={form.errorOf('pattern')}
        />
        <ChoiceField
          name="reason_code"
          legend={LABELS.reason_code}
          defaultValue="abuse"
          choices={Object.entries(REASONS).map(([value, label]) => ({
            value,
            label,
            hint:
              value === 'csam'
                ? 'Fleet-wide: no PoP or jurisdiction scope; the pattern is audited as a digest.'
                : undefined,
          }))}
          error={form.errorOf('reason_code')}
        />
        <TextField
          name="public_ref"
          label={LABELS.public_ref}
          hint="Shown to clients in the Extended DNS Error text (at most 100 characters)."
          error={form.errorOf('public_ref')}
        />
        <TextareaField
          name="note"
          label={LABELS.note}
          hint="For operators only; never published."
          rows={2}
          error={form.errorOf('note')}
        />
        <div className={form.errorOf('pops') === undefined ? 'field' : 'field field-invalid'}>
          <label htmlFor={fieldId('pops')}>{LABELS.pops}</label>
          <p className="hint">None chosen: every PoP.</p>
          {form.errorOf('pops') !== undefined && <p className="field-error">{form.errorOf('pops')}</p>}
          <select id={fieldId('pops')} name="pops" multiple size={4}>
            {(pops.data?.pops ?? []).map((pop) => (
              <option key={pop.id} value={pop.id}>
                {pop.name} ({pop.id})
              </option>
            ))}
          </select>
        </div>
        <TextField
          name="jurisdictions"
          label={LABELS.jurisdictions}
          hint="Country codes separated by commas (CA, DE); empty: everywhere."
          error={form.errorOf('jurisdictions')}
        />
        <TextField
          name="expires_at"
          label={LABELS.expires_at}
          hint="Empty: never."
          type="datetime-local"
          error={form.errorOf('expires_at')}
        />
        <SubmitButton pending={form.pending} busyText="Blocking…">
          Create the block
        </SubmitButton>
      </form>
    </section>
  );
}

function BlockRow({ block }: { block: OperatorBlock }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.admin.operatorBlocks.remove(block.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'operator-blocks'] }),
  });
  return (
    <tr>
      <th scope="row">
        <code>{block.pattern}</code>
      </th>
      <td>{REASONS[block.reason_code] ?? block.reason_code}</td>
      <td>{block.public_ref || '—'}</td>
      <td>{scope(block.pops, block.jurisdictions)}</td>
      <td>
        <DateTime value={block.expires_at} fallback="never" />
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
            ariaLabel={`Remove ${block.pattern}`}
            confirmLabel={`Yes, remove ${block.pattern}`}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
        {remove.error !== null && <ProblemDisplay problem={problemOf(remove.error)} />}
        {remove.data !== undefined && (
          <p role="status">Removed: operator blocks file version {remove.data.file_version}.</p>
        )}
      </td>
    </tr>
  );
}

/** Operator domain blocks: create, list by state, remove. */
export default function OperatorBlocksPage() {
  const [, navigate] = useLocation();
  const status = knownValue(FILTERS, new URLSearchParams(useSearch()).get('status') ?? 'live') ?? 'live';
  const blocks = usePagedList(['admin', 'operator-blocks', status], (cursor) =>
    api.admin.operatorBlocks.list({ status, limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Operator blocks">
      <CreateBlock />
      <section aria-labelledby="blocks-list">
        <h2 id="blocks-list">Blocks</h2>
        <div className="field">
          <label htmlFor="block-status">Show</label>
          <select
            id="block-status"
            value={status}
            onChange={(event) => navigate(`/operator/blocks?status=${event.target.value}`)}
          >
            {Object.entries(FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <PagedList list={blocks} empty="No block in this state." more="Show more blocks">
          {(items) => (
            <TableScroll label={`${FILTERS[status]} operator blocks`}>
              <table>
                <caption>{FILTERS[status]} operator blocks, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Pattern</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Public reference</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Created</th>
                    <th scope="col">Remove</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((block) => (
                    <BlockRow key={block.id} block={block} />
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
