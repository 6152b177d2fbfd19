import type { SourceBlock } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { knownValue } from '../../forms/known-value.js';
import { TextField } from '../../forms/text-field.js';
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

const LABELS = { cidr: 'Source prefix', reason: 'Reason' };

function CreateSourceBlock() {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) => {
      const { expires_at, ...scope } = scopeOf(values);
      return api.admin.sourceBlocks.create({
        cidr: values.text('cidr').trim(),
        reason: values.text('reason').trim(),
        ...scope,
        expires_at: expires_at ?? '',
      });
    },
    {
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.sourceBlocks() }),
      resetOnSuccess: true,
    },
  );
  return (
    <OperatorEntryForm
      id="create-source-block"
      title="Block an abusive source"
      form={form}
      labels={LABELS}
      success={(result) =>
        `Blocked ${result.block.cidr}: operator sources file version ${result.file_version}.`
      }
      expiresHint="Required: a source block always expires."
      submit="Block the source"
      busyText="Blocking…"
    >
      <TextField
        name="cidr"
        label={LABELS.cidr}
        hint="An IPv4 or IPv6 prefix, 203.0.113.0/24; stored masked."
        spellCheck={false}
        error={form.errorOf('cidr')}
      />
      <TextField name="reason" label={LABELS.reason} error={form.errorOf('reason')} />
    </OperatorEntryForm>
  );
}

function SourceBlockRow({ block }: { block: SourceBlock }) {
  const queryClient = useQueryClient();
  const pops = usePops();
  const remove = useMutation({
    mutationFn: () => api.admin.sourceBlocks.remove(block.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.sourceBlocks() }),
  });
  return (
    <tr>
      <th scope="row">
        <code>{block.cidr}</code>
      </th>
      <td>{block.reason}</td>
      <td>{scopeText(block.pops, block.jurisdictions, pops)}</td>
      <td>
        <DateTime value={block.expires_at} />
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
  const status =
    knownValue(ENTRY_FILTERS, new URLSearchParams(useSearch()).get('status') ?? 'live') ?? 'live';
  const blocks = usePagedList(adminKeys.sourceBlockList(status), (cursor) =>
    api.admin.sourceBlocks.list({ status, limit: 50 }).page(cursor),
  );
  return (
    <OperatorFrame title="Source blocks">
      <CreateSourceBlock />
      <section aria-labelledby="source-blocks-list">
        <h2 id="source-blocks-list">Blocked sources</h2>
        <StatusFilter id="source-block-status" path="/operator/source-blocks" status={status} />
        <PagedList list={blocks} empty="No source block in this state." more="Show more source blocks">
          {(items) => (
            <TableScroll label={`${ENTRY_FILTERS[status]} source blocks`}>
              <table>
                <caption>{ENTRY_FILTERS[status]} source blocks, newest first</caption>
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
