import type { DataExportService } from '@svc/domain';
import type { Logger } from 'pino';
import { IntervalJob } from './interval-job.js';

/** What one run of the export job did. */
export interface DataExportRun {
  built: number;
  expired: number;
}

/**
 * Builds every export waiting, then expires those past retention. A build that throws is logged and left to
 * a later run. Several servers may run it: each export is claimed (and leased) by one of them.
 */
export class DataExportScheduler extends IntervalJob<DataExportRun> {
  constructor(exports: DataExportService, logger: Pick<Logger, 'error'>, everyMs = 5_000) {
    super({
      work: async () => {
        let built = 0;
        try {
          while (await exports.buildNext()) built += 1;
        } catch (error) {
          logger.error({ err: error }, 'building a data export failed; it is retried after its lease');
        }
        return { built, expired: await exports.expireDue() };
      },
      name: 'data export job',
      failure: 'data export job failed',
      logger,
      everyMs,
    });
  }
}
