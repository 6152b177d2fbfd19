import type { DataExport } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { exportsKeys, exportsQueries } from '../../api/exports.queries.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

const STATUS_TEXT: Readonly<Record<string, string>> = {
  pending: 'Being prepared',
  ready: 'Ready',
  failed: 'Failed',
  expired: 'Expired',
};

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
        Download the export of <DateTime value={item.created_at} />
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
      <h2 id="exports-title">Your data</h2>
      <p>Download everything svc holds about your account and its profiles, as JSON lines.</p>
      {start.isError && <ProblemDisplay problem={problemOf(start.error)} />}
      <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
        Export my data
      </button>
      {exports.isError && (
        <ProblemDisplay problem={problemOf(exports.error)} onRetry={() => void exports.refetch()} />
      )}
      {exports.data !== undefined && exports.data.items.length > 0 && (
        <TableScroll label="Exports">
          <table>
            <caption>Exports</caption>
            <thead>
              <tr>
                <th scope="col">Asked</th>
                <th scope="col">Status</th>
                <th scope="col">Available until</th>
                <th scope="col">Download</th>
              </tr>
            </thead>
            <tbody>
              {exports.data.items.map((item) => (
                <tr key={item.id}>
                  <td>
                    <DateTime value={item.created_at} />
                  </td>
                  <td>{STATUS_TEXT[item.status] ?? item.status}</td>
                  <td>
                    <DateTime value={item.expires_at} />
                  </td>
                  <td>{item.status === 'ready' ? <DownloadButton item={item} /> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
