import type { OperatorBlock } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { knownValue } from '../../forms/known-value.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ActorName } from './actor-name.js';
import {
  ENTRY_FILTERS,
  OperatorEntryForm,
  StatusFilter,
  scopeOf,
  scopeText,
  usePops,
} from './operator-entry-form.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

const REASONS = { legal_order: 'Legal order', abuse: 'Abuse', csam: 'Child sexual abuse material' } as const;
const LABELS = {
  pattern: 'Pattern',
  reason_code: 'Reason',
  public_ref: 'Public reference',
  note: 'Internal note',
};

function CreateBlock() {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) => {
      const { expires_at, ...scope } = scopeOf(values);
      return api.admin.operatorBlocks.create({
        pattern: values.text('pattern').trim(),
        reason_code: knownValue(REASONS, values.text('reason_code')) ?? 'abuse',
        ...(values.optionalText('public_ref') === undefined
          ? {}
          : { public_ref: values.text('public_ref').trim() }),
        ...(values.optionalText('note') === undefined ? {} : { note: values.text('note') }),
        ...scope,
        ...(expires_at === undefined ? {} : { expires_at }),
      });
    },
    {
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.operatorBlocks() }),
      resetOnSuccess: true,
    },
  );
  return (
    <OperatorEntryForm
      id="create-block"
      title="Block a domain"
      intro={
        <p>
          Every resolver in scope answers the pattern NXDOMAIN with Extended DNS Error 15, whatever the
          profile.
        </p>
      }
      form={form}
      labels={LABELS}
      success={(result) =>
        `Blocked ${result.block.pattern}: operator blocks file version ${result.file_version}.`
      }
      expiresHint="Empty: never."
      submit="Create the block"
      busyText="Blocking…"
    >
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
    </OperatorEntryForm>
  );
}

function BlockRow({ block }: { block: OperatorBlock }) {
  const queryClient = useQueryClient();
  const pops = usePops();
  const remove = useMutation({
    mutationFn: () => api.admin.operatorBlocks.remove(block.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.operatorBlocks() }),
  });
  return (
    <tr>
      <th scope="row">
        <code>{block.pattern}</code>
      </th>
      <td>{REASONS[block.reason_code] ?? block.reason_code}</td>
      <td>{block.public_ref || '—'}</td>
      <td>{scopeText(block.pops, block.jurisdictions, pops)}</td>
      <td>
        <DateTime value={block.expires_at} fallback="never" />
      </td>
      <td>
        <DateTime value={block.created_at} /> by <ActorName actor={block.created_by} />
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
  const status =
    knownValue(ENTRY_FILTERS, new URLSearchParams(useSearch()).get('status') ?? 'live') ?? 'live';
  const blocks = usePagedList(adminKeys.operatorBlockList(status), (cursor) =>
    api.admin.operatorBlocks.list({ status, limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Operator blocks">
      <CreateBlock />
      <section aria-labelledby="blocks-list">
        <h2 id="blocks-list">Blocks</h2>
        <StatusFilter id="block-status" path="/operator/blocks" status={status} />
        <PagedList list={blocks} empty="No block in this state." more="Show more blocks">
          {(items) => (
            <TableScroll label={`${ENTRY_FILTERS[status]} operator blocks`}>
              <table>
                <caption>{ENTRY_FILTERS[status]} operator blocks, newest first</caption>
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
