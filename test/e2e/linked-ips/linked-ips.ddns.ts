import { expect, it } from 'vitest';
import { problemOf } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { LinkedIpsFixture } from './linked-ips.fixture.js';

/** DDNS slots filled from the caller's address, and their tokens (spec 4.4, 4.13). */
export function linkedIpDdns(fx: LinkedIpsFixture): void {
  const { freshIp, createProfile, link, linked, listOf, etagOf, updateUrlOf, rotate, ddns, documentAt } = fx;
  it('creates an empty DDNS slot and fills it from the caller’s address: changed once, then unchanged', async () => {
    const profileId = await createProfile();
    const slot = await linked(profileId, { ddns: true });
    expect(slot).toMatchObject({ ip: null, ddns: true, state: 'pending' });
    expect(slot.proof_url).toBeUndefined();
    expect((await documentAt(profileId, 2))?.linked_ips).toEqual([]);
    const url = await updateUrlOf(profileId, slot.id);
    expect(url).toMatch(new RegExp(`^${fx.api.url}/v1/ddns/[A-Za-z0-9_-]{43}$`));
    expect(await updateUrlOf(profileId, slot.id)).toBe(url);

    const first = await ddns(url, '198.51.100.76');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ ip: '198.51.100.76', changed: true });
    expect(await etagOf(profileId)).toBe('"3"');
    expect((await documentAt(profileId, 3))?.linked_ips).toEqual(['198.51.100.76']);
    const again = await ddns(url, '198.51.100.76');
    expect(again.json).toEqual({ ip: '198.51.100.76', changed: false });
    expect(await etagOf(profileId)).toBe('"3"');
    const [record] = (await listOf(profileId)).linked_ips;
    expect(record).toMatchObject({ id: slot.id, ip: '198.51.100.76', ddns: true, state: 'active' });

    const moved = await ddns(url, '198.51.100.77');
    expect(moved.json).toEqual({ ip: '198.51.100.77', changed: true });
    const mapped = await ddns(url, '::ffff:198.51.100.78');
    expect(mapped.json).toEqual({ ip: '198.51.100.78', changed: true });
    expect(await etagOf(profileId)).toBe('"5"');
    expect((await documentAt(profileId, 5))?.linked_ips).toEqual(['198.51.100.78']);
  });

  it('refuses private, loopback and reserved addresses with 422 naming ip, linked or from DDNS (issue 27)', async () => {
    const profileId = await createProfile();
    const refused = [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '240.0.0.1',
      '198.18.0.1',
      '192.0.0.8',
    ];
    for (const ip of refused) {
      const answer = await link(profileId, { ip });
      expectProblem(answer, 422, 'validation_failed');
      const errors = problemOf(answer).errors as { field: string; message: string }[];
      expect(
        errors.map((error) => error.field),
        ip,
      ).toEqual(['ip']);
      expect(errors[0]?.message).toMatch(/only public unicast addresses are linked/);
    }
    const slot = await linked(profileId, { ddns: true });
    const url = await updateUrlOf(profileId, slot.id);
    for (const from of [undefined, '10.0.0.7', '::ffff:192.168.0.9']) {
      const answer = await ddns(url, from);
      expectProblem(answer, 422, 'validation_failed');
      expect((problemOf(answer).errors as { field: string }[]).map((error) => error.field)).toEqual(['ip']);
    }
    expect(await etagOf(profileId)).toBe('"2"');
    expect((await listOf(profileId)).linked_ips.map((entry) => entry.ip)).toEqual([null]);
  });

  it('refuses an IPv6 DDNS caller with 422 naming ip, and changes nothing', async () => {
    const profileId = await createProfile();
    const slot = await linked(profileId, { ddns: true });
    const answer = await ddns(await updateUrlOf(profileId, slot.id), '2001:db8::53');
    expectProblem(answer, 422, 'validation_failed');
    expect((problemOf(answer).errors as { field: string }[]).map((error) => error.field)).toEqual(['ip']);
    expect(await etagOf(profileId)).toBe('"2"');
  });

  it('answers 409 ip_conflict when a DDNS update names an address linked elsewhere', async () => {
    const taken = freshIp();
    const holder = await createProfile();
    await linked(holder, { ip: taken });
    const profileId = await createProfile();
    const slot = await linked(profileId, { ddns: true });
    expectProblem(await ddns(await updateUrlOf(profileId, slot.id), taken), 409, 'ip_conflict');
    expect((await listOf(profileId)).linked_ips[0]?.ip).toBeNull();
    expect(await etagOf(profileId)).toBe('"2"');
  });

  it('rotates the DDNS token: the old URL is 404 at once, the new one works, the version stays', async () => {
    const profileId = await createProfile();
    const slot = await linked(profileId, { ddns: true });
    const old = await updateUrlOf(profileId, slot.id);
    const rotated = await rotate(profileId, slot.id);
    expect(rotated.status).toBe(200);
    const fresh = (rotated.json as { update_url: string }).update_url;
    expect(fresh).not.toBe(old);
    expect(await updateUrlOf(profileId, slot.id)).toBe(fresh);
    expect(await etagOf(profileId)).toBe('"2"');
    expectProblem(await ddns(old, freshIp()), 404, 'not_found');
    const ip = freshIp();
    expect((await ddns(fresh, ip)).json).toEqual({ ip, changed: true });
    expectProblem(await ddns(`${fx.api.url}/v1/ddns/not-a-token`), 404, 'not_found');
  });
}
