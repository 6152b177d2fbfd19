import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { LinkedIpBody, LinkedIpsFixture } from './linked-ips.fixture.js';

/** Unlinking, deleted profiles, paging, If-Match and idempotent replays (spec 4.4, 7; ROUTES.md). */
export function linkedIpUnlinkAndList(fx: LinkedIpsFixture): void {
  const { freshIp, createProfile, link, linked, listOf, etagOf, updateUrlOf, ddns, documentAt } = fx;
  it('unlinks with 204: gone from the list and the edge document, its DDNS URL stops, the address is free', async () => {
    const profileId = await createProfile();
    const ip = freshIp();
    const record = await linked(profileId, { ip });
    const url = await updateUrlOf(profileId, record.id);
    const removed = await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await etagOf(profileId)).toBe('"3"');
    expect((await documentAt(profileId, 3))?.linked_ips).toEqual([]);
    expect((await listOf(profileId)).linked_ips).toEqual([]);
    const again = await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expectProblem(again, 404, 'not_found');
    expectProblem(await ddns(url, freshIp()), 404, 'not_found');
    expect((await link(await createProfile(fx.stranger), { ip }, fx.stranger)).status).toBe(201);
  });

  it('frees the addresses of a deleted profile', async () => {
    const profileId = await createProfile();
    const ip = freshIp();
    await linked(profileId, { ip });
    const deleted = await send(`${fx.api.url}/v1/profiles/${profileId}`, {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(deleted.status).toBe(204);
    expect((await link(await createProfile(fx.stranger), { ip }, fx.stranger)).status).toBe(201);
  });

  it('pages the list newest first with sealed cursors', async () => {
    const profileId = await createProfile();
    const ips: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      ips.push(freshIp());
      await linked(profileId, { ip: ips.at(-1) });
      fx.api.clock.advance(1_000);
    }
    const first = await listOf(profileId, fx.owner, '?limit=2');
    expect(first.linked_ips.map((entry) => entry.ip)).toEqual([ips[2], ips[1]]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await listOf(profileId, fx.owner, `?limit=2&cursor=${first.next_cursor}`);
    expect(rest).toEqual({ linked_ips: [expect.objectContaining({ ip: ips[0] })], next_cursor: null });
    const tampered = await send(
      `${fx.api.url}/v1/profiles/${profileId}/linked-ips?cursor=x${first.next_cursor}`,
      {
        headers: fx.owner.auth,
      },
    );
    expectProblem(tampered, 400, 'invalid_cursor');
    const elsewhere = await createProfile();
    const crossed = await send(
      `${fx.api.url}/v1/profiles/${elsewhere}/linked-ips?cursor=${first.next_cursor}`,
      {
        headers: fx.owner.auth,
      },
    );
    expectProblem(crossed, 400, 'invalid_cursor');
    expect(
      (await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips?limit=0`, { headers: fx.owner.auth }))
        .status,
    ).toBe(422);
  });

  it('honours If-Match on link and unlink (412 version_mismatch, nothing changes)', async () => {
    const profileId = await createProfile();
    expectProblem(
      await link(profileId, { ip: freshIp() }, fx.owner, { 'if-match': '"7"' }),
      412,
      'version_mismatch',
    );
    const record = (await link(profileId, { ip: freshIp() }, fx.owner, { 'if-match': '"1"' }))
      .json as LinkedIpBody;
    expect(await etagOf(profileId)).toBe('"2"');
    const stale = await send(`${fx.api.url}/v1/profiles/${profileId}/linked-ips/${record.id}`, {
      method: 'DELETE',
      headers: { ...fx.owner.auth, 'if-match': '"1"' },
    });
    expectProblem(stale, 412, 'version_mismatch');
    expect((await listOf(profileId)).linked_ips).toHaveLength(1);
  });

  it('replays a link repeated with the same Idempotency-Key', async () => {
    const profileId = await createProfile();
    const ip = freshIp();
    const headers = { 'idempotency-key': `link-${Math.random()}` };
    const first = await link(profileId, { ip }, fx.owner, headers);
    const again = await link(profileId, { ip }, fx.owner, headers);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await etagOf(profileId)).toBe('"2"');
  });
}
