import { queryRecords, type SvcClient } from '@svc/sdk';

/** logs-and-analytics.md: the latest rows, then a search paged to the end, read by column name. */
export async function readLogs(svc: SvcClient, id: string): Promise<void> {
  const latest = await svc.profiles.logs.query(id, { limit: 20, status: 'blocked' });
  for (const row of queryRecords(latest)) console.log(row.ts, row.qname, row.status);

  const since = new Date(Date.now() - 24 * 3600_000);
  for await (const page of svc.profiles.logs.pages(id, { qname: 'example', from: since })) {
    console.log(queryRecords(page).length, 'rows');
  }
}

/** logs-and-analytics.md: aggregates, one method per shape. */
export async function readAnalytics(svc: SvcClient, id: string): Promise<void> {
  const week = { from: new Date(Date.now() - 7 * 24 * 3600_000) };
  const top = await svc.profiles.analytics.topDomains(id, { ...week, limit: 10 });
  for (const { qname, count } of queryRecords(top)) console.log(qname, count);
  const perHour = await svc.profiles.analytics.timeline(id, { ...week, bucket: 3600 });
  const byStatus = await svc.profiles.analytics.countsByStatus(id, week);
  console.log(perHour.rows.length, queryRecords(byStatus));
}
