import { expect, it } from 'vitest';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { type LinkedIpBody, type LinkedIpsFixture, UUID } from './linked-ips.fixture.js';

/** Linking an address: the version bump, the published document, and one profile per address (spec 4.4). */
export function linkedIpLinks(fx: LinkedIpsFixture): void {
  const { freshIp, createProfile, link, linked, listOf, etagOf, documentAt } = fx;
  it('links an address: 201 with Location, one version bump, and linked_ips in the published document', async () => {
    const profileId = await createProfile();
    const ip = freshIp();
    const answer = await link(profileId, { ip });
    expect(answer.status).toBe(201);
    const record = answer.json as LinkedIpBody;
    expect(record.id).toMatch(UUID);
    expect(record).toMatchObject({ ip, ddns: false, state: 'active' });
    expect(Object.keys(record).sort()).toEqual(['created_at', 'ddns', 'id', 'ip', 'state', 'updated_at']);
    expect(answer.headers.location).toBe(`/v1/profiles/${profileId}/linked-ips/${record.id}`);
    expect(await etagOf(profileId)).toBe('"2"');
    expect((await documentAt(profileId, 1))?.linked_ips).toEqual([]);
    expect((await documentAt(profileId, 2))?.linked_ips).toEqual([ip]);
    expect((await listOf(profileId)).linked_ips).toEqual([record]);
    const one = await send(`${fx.api.url}${answer.headers.location}`, { headers: fx.owner.auth });
    expect(one.json).toEqual(record);
  });

  it('republishes the linked addresses, in text order, with every write of the profile row alone', async () => {
    const profileId = await createProfile();
    const addresses = ['203.0.113.254', '198.51.100.201'];
    for (const ip of addresses) await linked(profileId, { ip });
    await linked(profileId, { ddns: true });
    const writes = [
      { path: '', method: 'PATCH', body: { name: 'renamed' } },
      { path: '/rules', method: 'PUT', body: { deny: ['ads.example'], allow: [], rewrites: [] } },
      { path: '/lists', method: 'PUT', body: { lists: [] } },
    ];
    for (const write of writes) {
      const answer = await send(`${fx.api.url}/v1/profiles/${profileId}${write.path}`, {
        method: write.method,
        headers: fx.owner.auth,
        body: write.body,
      });
      expect(answer.status, answer.text).toBe(200);
    }
    expect(await etagOf(profileId)).toBe('"7"');
    for (const version of [5, 6, 7])
      expect((await documentAt(profileId, version))?.linked_ips).toEqual(['198.51.100.201', '203.0.113.254']);
  });

  it('answers 409 ip_conflict for an address linked to any profile, another organisation’s included', async () => {
    const mine = await createProfile();
    const theirs = await createProfile(fx.stranger);
    const ip = freshIp();
    await linked(mine, { ip });
    expectProblem(await link(theirs, { ip }, fx.stranger), 409, 'ip_conflict');
    expectProblem(await link(mine, { ip }), 409, 'ip_conflict');
    expect(await etagOf(mine)).toBe('"2"');
    expect((await listOf(theirs, fx.stranger)).linked_ips).toEqual([]);
  });

  it('lets exactly one of two concurrent links of one address succeed (409 for the other)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const first = await createProfile();
      const second = await createProfile(fx.stranger);
      const ip = freshIp();
      const answers = await Promise.all([link(first, { ip }), link(second, { ip }, fx.stranger)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(problemOf(answers.find((answer) => answer.status === 409) as RawAnswer).code).toBe(
        'ip_conflict',
      );
      const holders = [
        ...(await listOf(first)).linked_ips,
        ...(await listOf(second, fx.stranger)).linked_ips,
      ];
      expect(holders.map((entry) => entry.ip)).toEqual([ip]);
    }
  });

  it.each([
    [{ ip: '2001:db8::1' }, 'ip', /IPv4/],
    [{ ip: '203.0.113.300' }, 'ip', /IPv4/],
    [{}, 'ip', /^send ip \(an IPv4 address to link\) or ddns: true(?!.*not both)/],
    [{ ip: '192.0.2.1', ddns: true }, 'ip', /not both/],
    [{ ddns: false }, 'ddns', /true/],
  ])('refuses %j with 422 validation_failed naming %s', async (body, field, message) => {
    const profileId = await createProfile();
    const answer = await link(profileId, body);
    expectProblem(answer, 422, 'validation_failed');
    const error = (problemOf(answer).errors as { field: string; message: string }[]).find(
      (entry) => entry.field === field,
    );
    expect(error?.message).toMatch(message);
    expect(await etagOf(profileId)).toBe('"1"');
  });
}
