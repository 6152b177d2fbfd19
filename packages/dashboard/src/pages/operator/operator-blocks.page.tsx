import type { OperatorBlock } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { knownValue } from '../../forms/known-value.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
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

const REASONS = {
  legal_order: t('operator.blocks.reason.legal_order'),
  abuse: t('operator.blocks.reason.abuse'),
  csam: t('operator.blocks.reason.csam'),
} as const;
const LABELS = {
  pattern: t('operator.blocks.pattern'),
  reason_code: t('operator.blocks.reason'),
  public_ref: t('operator.blocks.publicRef'),
  note: t('operator.blocks.note'),
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
      title={t('operator.blocks.create')}
      intro={<p>{t('operator.blocks.intro')}</p>}
      form={form}
      labels={LABELS}
      success={(result) =>
        t('operator.blocks.created', { pattern: result.block.pattern, version: result.file_version })
      }
      expiresHint={t('operator.blocks.expires.hint')}
      submit={t('operator.blocks.submit')}
      busyText={t('operator.entry.blocking')}
    >
      <TextField
        name="pattern"
        label={LABELS.pattern}
        hint={t('operator.blocks.pattern.hint')}
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
          hint: value === 'csam' ? t('operator.blocks.reason.csam.hint') : undefined,
        }))}
        error={form.errorOf('reason_code')}
      />
      <TextField
        name="public_ref"
        label={LABELS.public_ref}
        hint={t('operator.blocks.publicRef.hint')}
        error={form.errorOf('public_ref')}
      />
      <TextareaField
        name="note"
        label={LABELS.note}
        hint={t('operator.blocks.note.hint')}
        rows={2}
        error={form.errorOf('note')}
      />
    </OperatorEntryForm>
  );
}

/** The blocks in one state: a table, a card each on a phone. */
function BlockTable({
  status,
  blocks,
}: {
  status: keyof typeof ENTRY_FILTERS;
  blocks: readonly OperatorBlock[];
}) {
  const pops = usePops();
  return (
    <ResponsiveTable
      caption={t('operator.blocks.caption', { status: ENTRY_FILTERS[status] })}
      rows={blocks}
      rowKey={(block) => block.id}
      columns={[
        { header: LABELS.pattern, cell: (block) => <code>{block.pattern}</code> },
        { header: LABELS.reason_code, cell: (block) => REASONS[block.reason_code] ?? block.reason_code },
        { header: LABELS.public_ref, cell: (block) => block.public_ref || '—' },
        {
          header: t('operator.blocks.scope'),
          cell: (block) => scopeText(block.pops, block.jurisdictions, pops),
        },
        {
          header: t('operator.entry.expires'),
          cell: (block) => <DateTime value={block.expires_at} fallback={t('operator.never')} />,
        },
        {
          header: t('operator.entry.created'),
          cell: (block) => <EntryCreated at={block.created_at} by={block.created_by} />,
        },
        {
          header: t('operator.entry.remove'),
          cell: (block) => (
            <EntryRemoval
              what={block.pattern}
              removedAt={block.removed_at}
              remove={() => api.admin.operatorBlocks.remove(block.id)}
              invalidates={adminKeys.operatorBlocks()}
              outcome={(removed) => t('operator.blocks.removed', { version: removed.file_version })}
            />
          ),
        },
      ]}
    />
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
    <OperatorFrame title={t('operator.blocks.title')}>
      <CreateBlock />
      <section aria-labelledby="blocks-list">
        <h2 id="blocks-list">{t('operator.blocks.list')}</h2>
        <StatusFilter id="block-status" path="/operator/blocks" status={status} />
        <PagedList list={blocks} empty={t('operator.blocks.none')} more={t('operator.blocks.more')}>
          {(items) => <BlockTable status={status} blocks={items} />}
        </PagedList>
      </section>
    </OperatorFrame>
  );
}
