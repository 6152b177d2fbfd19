import type { QueryLogRow } from '@svc/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemOf } from '../../support/http.js';
import { column, HOUR, type QueryLogFixture } from './query-log.fixture.js';
import { insertRows } from './query-log.seed.js';

/**
 * The `decided_by` column and filter of the logs (issue 38, ADR 0045) through HTTP: a paused query, logged
 * allowed with reason_code none (ADR 0041), is told apart by decided_by = paused; the filter is exact or a
 * prefix before a trailing `*`; a bad value is 422 naming decided_by; a self-hosted profile's node cannot
 * apply it (501 shape_unsupported).
 */
export function queryLogDecidedBy(fx: QueryLogFixture): void {
  let profileId: string;
  let from: number;

  describe('decided_by (issue 38)', () => {
    beforeAll(async () => {
      profileId = await fx.createProfile(fx.owner);
      from = fx.now.getTime() - HOUR;
      const template = { ...(fx.rows[0] as QueryLogRow), profileId, status: 'allowed' as const };
      const plain = {
        ...template,
        reasonListId: null,
        reasonListName: '',
        reasonRule: '',
        operatorCode: '' as const,
      };
      await insertRows(fx.writer, [
        { ...plain, ts: new Date(from), rowId: '1', decidedBy: 'paused' },
        { ...plain, ts: new Date(from + 1), rowId: '2', decidedBy: 'schedule:bedtime' },
        { ...plain, ts: new Date(from + 2), rowId: '3' },
      ]);
    });

    const logs = (extra: string) =>
      fx.ok(`/v1/profiles/${profileId}/logs?mode=search&from=${from}&to=${fx.now.getTime()}${extra}`);

    it('log rows carry decided_by after the derived columns; a paused query reads allowed, none, paused', async () => {
      const result = await logs('');
      expect(result.columns.at(-1)).toEqual({ name: 'decided_by', type: 'string' });
      expect(column(result, 'decided_by')).toEqual(['', 'schedule:bedtime', 'paused']);
      expect(column(result, 'reason_code')).toEqual(['none', 'none', 'none']);
      expect(column(result, 'status')).toEqual(['allowed', 'allowed', 'allowed']);
    });

    it('decided_by filters exactly, or by prefix with a trailing *', async () => {
      expect(column(await logs('&decided_by=paused'), 'decided_by')).toEqual(['paused']);
      expect(column(await logs('&decided_by=schedule:*'), 'decided_by')).toEqual(['schedule:bedtime']);
      expect(column(await logs('&decided_by=schedule'), 'decided_by')).toEqual([]);
    });

    it('a decided_by outside [a-z0-9:._~-] is 422 naming decided_by', async () => {
      const answer = await fx.get(`/v1/profiles/${profileId}/logs?decided_by=Paused%20now`);
      expect(answer.status).toBe(422);
      expect(problemOf(answer).errors).toEqual([{ field: 'decided_by', message: expect.any(String) }]);
    });

    it('a self-hosted profile answers 501 shape_unsupported: its node cannot filter by decided_by', async () => {
      const answer = await fx.get(`/v1/profiles/${fx.selfHostedId}/logs?decided_by=paused`);
      expect(answer.status).toBe(501);
      expect(problemOf(answer).code).toBe('shape_unsupported');
    });
  });
}
