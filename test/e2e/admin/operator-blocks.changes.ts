import { republishExpiredOperatorFiles, UnitOfWork } from '@svc/domain';
import { type OperatorExpiryScheduler, OperatorExpirySchedulerToken } from '@svc/http-server';
import { expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import {
  type BlockBody,
  type Change,
  freshPattern,
  HOUR,
  type OperatorBlocksFixture,
  sequence,
} from './operator-blocks.fixture.js';

/** The operator file each change publishes, idempotent creates, the list of blocks, and expiry (spec 2.8, 4.10). */
export function operatorBlockChanges(fx: OperatorBlocksFixture): void {
  const { url, create, created, announcementsOf, waitForVersion } = fx;
  it('publishes exactly one operator.changed per change, versions gapless under concurrent creates and one winner per pattern', async () => {
    // The version before this test's changes, as the previous change answered it.
    const before = (await created()).file_version;
    const contested = freshPattern('race');
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => create({ pattern: freshPattern('many'), reason_code: 'abuse' })),
      ...Array.from({ length: 4 }, () => create({ pattern: contested, reason_code: 'abuse' })),
    ]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.slice(0, 6)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(statuses.slice(6).sort()).toEqual([201, 409, 409, 409]);
    const versions = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => (answer.json as Change).file_version)
      .sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 7 }, (_, index) => before + 1 + index));
    await waitForVersion('operator_blocks', before + 7);
    const announced = announcementsOf('operator_blocks')
      .map((announcement) => announcement.version)
      .filter((version) => version > before);
    expect(announced.sort((a, b) => a - b)).toEqual(versions);
  });

  it('replays an idempotent create without a second change', async () => {
    const body = { pattern: freshPattern('idem'), reason_code: 'abuse' };
    const headers = { ...fx.operator.admin, 'idempotency-key': `create-${sequence}` };
    const first = await create(body, headers);
    expect(first.status).toBe(201);
    const second = await create(body, headers);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json).toEqual(first.json);
    const reused = await create({ ...body, reason_code: 'legal_order' }, headers);
    expect(reused.status).toBe(409);
    expect(problemOf(reused).code).toBe('idempotency_key_reused');
  });

  it('lists live and removed entries newest first with filters and cursors', async () => {
    fx.api.clock.advance(1_000);
    const live = await created();
    fx.api.clock.advance(1_000);
    const removed = await created();
    await send(url(`/${removed.block.id}`), { method: 'DELETE', headers: fx.operator.admin });
    const all = (await send(url('?limit=200'), { headers: fx.operator.admin })).json as {
      blocks: BlockBody[];
    };
    expect(all.blocks.map((block) => block.id).slice(0, 2)).toEqual([removed.block.id, live.block.id]);
    const liveOnly = (await send(url('?status=live&limit=200'), { headers: fx.operator.admin })).json as {
      blocks: BlockBody[];
    };
    expect(liveOnly.blocks.some((block) => block.id === live.block.id)).toBe(true);
    expect(liveOnly.blocks.every((block) => block.removed_at === null)).toBe(true);
    const removedOnly = (await send(url('?status=removed&limit=200'), { headers: fx.operator.admin }))
      .json as {
      blocks: BlockBody[];
    };
    expect(removedOnly.blocks.every((block) => block.removed_at !== null)).toBe(true);
    expect(removedOnly.blocks.some((block) => block.id === removed.block.id)).toBe(true);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await send(
        url(`?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
        {
          headers: fx.operator.admin,
        },
      );
      expect(page.status).toBe(200);
      const body = page.json as { blocks: BlockBody[]; next_cursor: string | null };
      seen.push(...body.blocks.map((block) => block.id));
      cursor = body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.blocks.map((block) => block.id));
    expect((await send(url('?status=gone'), { headers: fx.operator.admin })).status).toBe(422);
    expect((await send(url('?cursor=forged'), { headers: fx.operator.admin })).status).toBe(400);
  });

  it('republishes the file without an entry once its expiry passes, once, and frees its pattern', async () => {
    const pattern = freshPattern('expiring');
    const expiring = await created({
      pattern,
      expires_at: new Date(fx.api.clock.now().getTime() + HOUR).toISOString(),
    });
    await waitForVersion('operator_blocks', expiring.file_version);
    fx.api.clock.advance(2 * HOUR);
    const scheduler = await fx.api.container.getAsync<OperatorExpiryScheduler>(OperatorExpirySchedulerToken);
    const version = expiring.file_version;
    // The background interval may have republished first; either way the expiry republishes exactly once.
    await scheduler.runOnce();
    await waitForVersion('operator_blocks', version + 1);
    const republished = announcementsOf('operator_blocks').find((a) => a.version === version + 1);
    expect(republished?.document.blocks?.some((block) => block.id === expiring.block.id)).toBe(false);
    expect(await scheduler.runOnce()).toBe(0);
    const expired = (await send(url('?status=expired&limit=200'), { headers: fx.operator.admin })).json as {
      blocks: BlockBody[];
    };
    expect(expired.blocks.some((block) => block.id === expiring.block.id)).toBe(true);
    expect((await create({ pattern, reason_code: 'abuse' })).status).toBe(201);
  });

  it('republishes an expiry once when several servers’ schedulers run at the same time', async () => {
    const expiring = await created({
      expires_at: new Date(fx.api.clock.now().getTime() + HOUR).toISOString(),
    });
    await waitForVersion('operator_blocks', expiring.file_version);
    fx.api.clock.advance(2 * HOUR);
    const uow = await fx.api.container.getAsync<UnitOfWork>(UnitOfWork);
    const before = expiring.file_version;
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => republishExpiredOperatorFiles(uow, fx.api.clock.now())),
    );
    // At most one of them republishes (none if the background interval was quicker).
    expect(runs.reduce((sum, files) => sum + files, 0)).toBeLessThanOrEqual(1);
    await waitForVersion('operator_blocks', before + 1);
    expect(announcementsOf('operator_blocks').filter((a) => a.version > before)).toHaveLength(1);
  });
}
