import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AccountTabs } from './account-tabs.js';

/** What the audit log's details say, in one short line. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
    .join(' · ');
}

/** The organisation's audit log, newest first, fifty at a time. */
export default function AuditPage() {
  const entries = useInfiniteQuery({
    queryKey: ['account', 'audit'],
    queryFn: ({ pageParam }) => api.auth.audit.list({ limit: 50 }).page(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = entries.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>Audit log</h1>
      <AccountTabs />
      <p>Every change to your organisation's account, tokens and profiles, newest first.</p>
      {entries.isError && (
        <ProblemDisplay problem={problemOf(entries.error)} onRetry={() => void entries.refetch()} />
      )}
      {entries.isPending && <p aria-busy="true">Loading…</p>}
      {entries.isSuccess && rows.length === 0 && <p>Nothing recorded yet.</p>}
      {rows.length > 0 && (
        <TableScroll label="Audit entries">
          <table>
            <caption>Audit entries</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">By</th>
                <th scope="col">On</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <DateTime value={entry.created_at} />
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{entry.actor}</td>
                  <td>{entry.target}</td>
                  <td>{entry.client_ip ?? '—'}</td>
                  <td>{detailsOf(entry.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {entries.hasNextPage && (
        <button
          type="button"
          disabled={entries.isFetchingNextPage}
          onClick={() => void entries.fetchNextPage()}
        >
          Show older entries
        </button>
      )}
    </>
  );
}
