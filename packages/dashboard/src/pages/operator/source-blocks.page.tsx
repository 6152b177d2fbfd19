import type { SourceBlock } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { knownValue } from '../../forms/known-value.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { EntryCreated, EntryRemoval } from './operator-entry-cells.js';
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

const LABELS = { cidr: t('operator.sourceBlocks.cidr'), reason: t('operator.sourceBlocks.reason') };

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
      title={t('operator.sourceBlocks.create')}
      form={form}
      labels={LABELS}
      success={(result) =>
        t('operator.sourceBlocks.created', { cidr: result.block.cidr, version: result.file_version })
      }
      expiresHint={t('operator.sourceBlocks.expires.hint')}
      submit={t('operator.sourceBlocks.submit')}
      busyText={t('operator.entry.blocking')}
    >
      <TextField
        name="cidr"
        label={LABELS.cidr}
        hint={t('operator.sourceBlocks.cidr.hint')}
        spellCheck={false}
        error={form.errorOf('cidr')}
      />
      <TextField name="reason" label={LABELS.reason} error={form.errorOf('reason')} />
    </OperatorEntryForm>
  );
}

/** The source blocks in one state: a table, a card each on a phone. */
function SourceBlockTable({
  status,
  blocks,
}: {
  status: keyof typeof ENTRY_FILTERS;
  blocks: readonly SourceBlock[];
}) {
  const pops = usePops();
  return (
    <ResponsiveTable
      caption={t('operator.sourceBlocks.caption', { status: ENTRY_FILTERS[status] })}
      rows={blocks}
      rowKey={(block) => block.id}
      columns={[
        { header: t('operator.sourceBlocks.prefix'), cell: (block) => <code>{block.cidr}</code> },
        { header: LABELS.reason, cell: (block) => block.reason },
        {
          header: t('operator.blocks.scope'),
          cell: (block) => scopeText(block.pops, block.jurisdictions, pops),
        },
        { header: t('operator.entry.expires'), cell: (block) => <DateTime value={block.expires_at} /> },
        {
          header: t('operator.entry.created'),
          cell: (block) => <EntryCreated at={block.created_at} by={block.created_by} />,
        },
        {
          header: t('operator.entry.remove'),
          cell: (block) => (
            <EntryRemoval
              what={block.cidr}
              removedAt={block.removed_at}
              remove={() => api.admin.sourceBlocks.remove(block.id)}
              invalidates={adminKeys.sourceBlocks()}
            />
          ),
        },
      ]}
    />
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
    <OperatorFrame title={t('operator.sourceBlocks.title')}>
      <CreateSourceBlock />
      <section aria-labelledby="source-blocks-list">
        <h2 id="source-blocks-list">{t('operator.sourceBlocks.list')}</h2>
        <StatusFilter id="source-block-status" path="/operator/source-blocks" status={status} />
        <PagedList
          list={blocks}
          empty={t('operator.sourceBlocks.none')}
          more={t('operator.sourceBlocks.more')}
        >
          {(items) => <SourceBlockTable status={status} blocks={items} />}
        </PagedList>
      </section>
    </OperatorFrame>
  );
}
