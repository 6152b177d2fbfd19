import type { DataExport } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { exportsKeys, exportsQueries } from '../../api/exports.queries.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { useNotify } from '../../feedback/notify.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** Saves the archive the browser's way: a file download of the text the SDK fetched with the session. */
function saveAs(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function DownloadButton({ item }: { item: DataExport }) {
  const download = useMutation({
    mutationFn: () => api.auth.exports.download(item.id),
    onSuccess: (text) => saveAs(text, `svc-export-${item.created_at.slice(0, 10)}.jsonl`),
  });
  return (
    <>
      <button type="button" disabled={download.isPending} onClick={() => download.mutate()}>
        {t('account.exports.downloadOf', { asked: formatDateTime(item.created_at) })}
      </button>
      {download.isError && <ProblemDisplay problem={problemOf(download.error)} />}
    </>
  );
}

/** The account's data exports (GDPR): start one, watch it get ready, download it. */
export function DataExports() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const exports = useQuery(exportsQueries.list());
  const start = useMutation({
    mutationFn: () => api.auth.exports.create(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: exportsKeys.list() });
      notify.info(t('account.exports.started'));
    },
  });
  return (
    <section aria-labelledby="exports-title">
      <h2 id="exports-title">{t('account.exports.title')}</h2>
      <p>{t('account.exports.intro')}</p>
      {start.isError && <ProblemDisplay problem={problemOf(start.error)} />}
      <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
        {t('account.exports.start')}
      </button>
      {exports.isError && (
        <ProblemDisplay problem={problemOf(exports.error)} onRetry={() => void exports.refetch()} />
      )}
      {exports.data !== undefined && exports.data.items.length > 0 && (
        <ResponsiveTable
          caption={t('account.exports.caption')}
          rows={exports.data.items}
          rowKey={(item) => item.id}
          columns={[
            { header: t('account.exports.asked'), cell: (item) => <DateTime value={item.created_at} /> },
            {
              header: t('account.exports.status'),
              cell: (item) => t('account.exports.statusName', { status: item.status }),
            },
            {
              header: t('account.exports.availableUntil'),
              cell: (item) => <DateTime value={item.expires_at} />,
            },
            {
              header: t('account.exports.download'),
              cell: (item) =>
                item.status === 'ready' ? <DownloadButton item={item} /> : t('account.exports.noDownload'),
            },
          ]}
        />
      )}
    </section>
  );
}
