import type { Clock, ListPipelineService, ListPipelineStore, ListRefreshReport } from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/** How often a server checks whether the lists are due a refresh. */
const CHECK_EVERY_MS = 15 * 60_000;

/** What the refresh schedule is built from. */
export interface ListRefreshDependencies {
  pipeline: Pick<ListPipelineService, 'refresh'>;
  store: Pick<ListPipelineStore, 'lastRefresh'>;
  clock: Clock;
  logger: Pick<Logger, 'error' | 'info'>;
  /** Hours between refreshes (SVC_LIST_REFRESH_HOURS; the schedule is not started at 0). */
  refreshHours: number;
}

/**
 * The list refresh schedule of `svc serve`: every quarter of an hour each server checks when the lists were
 * last refreshed (by any server) and refreshes them once that is `refreshHours` ago or never happened; the
 * pipeline's claim keeps two servers from refreshing at once. Answers null when no refresh was due.
 */
export class ListRefreshScheduler extends IntervalJob<ListRefreshReport | null> {
  constructor(deps: ListRefreshDependencies, everyMs = CHECK_EVERY_MS) {
    super({
      name: 'list refresh scheduler',
      work: () => refreshIfDue(deps),
      failure: 'list refresh failed',
      logger: deps.logger,
      everyMs,
    });
  }
}

async function refreshIfDue(deps: ListRefreshDependencies): Promise<ListRefreshReport | null> {
  const last = await deps.store.lastRefresh();
  const due = last === null || deps.clock.now().getTime() - last.getTime() >= deps.refreshHours * 3_600_000;
  if (!due) return null;
  const report = await deps.pipeline.refresh();
  if (report.skipped === undefined) {
    const failed = report.sources.filter((source) => source.status === 'failed').map((source) => source.id);
    const created = report.lists.filter((list) => list.created).map((list) => list.list_id);
    deps.logger.info({ failed, created }, 'lists refreshed');
  }
  return report;
}
