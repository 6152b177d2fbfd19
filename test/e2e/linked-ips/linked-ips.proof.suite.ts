import { type BusDelivery, ddnsLookupOf, ddnsTokenOf, KeyedHash, MessageBus, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { DAY_MS, type LinkedIpBody } from './linked-ips.fixture.js';

/**
 * A linked address is proven by a request from it (issue 35): a claim from elsewhere stays pending and links
 * nothing, so nobody takes over another's address; X-Forwarded-For plays the callers' addresses.
 */
export function runLinkedIpsProofSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `linked IPs proven by their address on ${storage} (issue 35)`,
    () => {
      let api: ApiHarness;
      let victim: TestAccount;
      let attacker: TestAccount;
      const published: BusDelivery[] = [];
      let nextAddress = 0;
      /** A documentation address (RFC 5737) no other test of this block links. */
      const freshIp = () => {
        nextAddress += 1;
        return `198.51.100.${nextAddress}`;
      };

      beforeAll(async () => {
        api = await startApi(storage, { SVC_TRUST_PROXY: 'loopback' });
        const bus = await api.container.getAsync<MessageBus>(MessageBus);
        await bus.subscribe('profiles.>', (delivery) => {
          published.push(delivery);
        });
        victim = await createAccount(api);
        attacker = await createAccount(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const createProfile = async (headers: Record<string, string>): Promise<string> => {
        const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers, body: {} });
        expect(answer.status, answer.text).toBe(201);
        return (answer.json as { id: string }).id;
      };
      const link = (profileId: string, body: object, headers: Record<string, string>, from?: string) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
          method: 'POST',
          headers: { ...headers, ...(from === undefined ? {} : { 'x-forwarded-for': from }) },
          body,
        });
      const listOf = async (profileId: string, headers: Record<string, string>) =>
        (await send(`${api.url}/v1/profiles/${profileId}/linked-ips`, { headers })).json as {
          linked_ips: LinkedIpBody[];
        };
      const ddns = (url: string, from: string) => send(url, { headers: { 'x-forwarded-for': from } });
      const publishedAddresses = async (profileId: string, version: number) => {
        const documents = await eventually(
          async () =>
            published
              .filter((delivery) => delivery.subject === `profiles.${profileId}`)
              .map((delivery) => delivery.payload as { version: number; linked_ips: string[] }),
          (found) => found.some((document) => document.version === version),
        );
        return documents.find((document) => document.version === version)?.linked_ips;
      };
      /** An account that signed up and signed in but has not opened its verification mail yet. */
      const signUpUnverified = async () => {
        const email = `unverified-${Math.random().toString(36).slice(2, 10)}@example.test`;
        const password = 'correct horse battery';
        const signup = await send(`${api.url}/v1/auth/signup`, { method: 'POST', body: { email, password } });
        expect(signup.status).toBe(202);
        const mails = await eventually(
          () => api.mailTo(email),
          (found) => found.length > 0,
        );
        const verifyToken = decodeURIComponent(
          /verify-email\?token=([^\s"<]+)/.exec(mails[0] ?? '')?.[1] ?? '',
        );
        const login = await send(`${api.url}/v1/auth/login`, { method: 'POST', body: { email, password } });
        const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1];
        expect(cookie, login.text).toBeDefined();
        const session = { cookie: `svc_session=${cookie}` };
        const me = await send(`${api.url}/v1/auth/me`, { headers: session });
        const orgId = (me.json as { account: { org_id: string } }).account.org_id;
        return { email, password, session, verifyToken, orgId };
      };

      it('makes a claim of someone else’s address pending: its proof URL shown, never published, blocking nobody', async () => {
        const victimIp = freshIp();
        const attackerIp = freshIp();
        const theirs = await createProfile(attacker.auth);
        const claim = await link(theirs, { ip: victimIp }, attacker.auth, attackerIp);
        expect(claim.status, claim.text).toBe(201);
        const pending = claim.json as LinkedIpBody;
        expect(pending).toMatchObject({ ip: victimIp, ddns: false, state: 'pending' });
        expect(pending.proof_url).toMatch(new RegExp(`^${api.url}/v1/ddns/[A-Za-z0-9_-]{43}$`));
        expect(await publishedAddresses(theirs, 2)).toEqual([]);
        const listed = (await listOf(theirs, attacker.auth)).linked_ips;
        const { proof_url: _shownOnce, ...withoutProof } = pending;
        expect(listed).toEqual([withoutProof]);

        // The real owner links it from the network itself: active and published, no ip_conflict.
        const mine = await createProfile(victim.auth);
        const proven = await link(mine, { ip: victimIp }, victim.auth, victimIp);
        expect(proven.status, proven.text).toBe(201);
        expect((proven.json as LinkedIpBody).state).toBe('active');
        expect((proven.json as LinkedIpBody).proof_url).toBeUndefined();
        expect(await publishedAddresses(mine, 2)).toEqual([victimIp]);

        // Proving the claim now would make a second holder: 409, and the claim stays unpublished.
        expectProblem(await ddns(pending.proof_url ?? '', victimIp), 409, 'ip_conflict');
        expect((await listOf(theirs, attacker.auth)).linked_ips[0]?.state).toBe('pending');
      });

      it('proves a pending claim by its proof URL called from the address; two proven claims keep 409 (a shared NAT)', async () => {
        const ip = freshIp();
        const profileId = await createProfile(victim.auth);
        const pending = (await link(profileId, { ip }, victim.auth, freshIp())).json as LinkedIpBody;
        expect(pending.state).toBe('pending');
        const proof = await ddns(pending.proof_url ?? '', ip);
        expect(proof.status, proof.text).toBe(200);
        expect(proof.json).toEqual({ ip, changed: true });
        expect(await publishedAddresses(profileId, 3)).toEqual([ip]);
        expect((await listOf(profileId, victim.auth)).linked_ips[0]).toMatchObject({ ip, state: 'active' });
        expect((await ddns(pending.proof_url ?? '', ip)).json).toEqual({ ip, changed: false });

        const other = await createProfile(attacker.auth);
        expectProblem(await link(other, { ip }, attacker.auth, ip), 409, 'ip_conflict');
        // A mere claim never conflicts.
        expect(((await link(other, { ip }, attacker.auth, freshIp())).json as LinkedIpBody).state).toBe(
          'pending',
        );
      });

      it('expires a claim left unproven for 24 hours: gone from the list, its proof URL 404, no cap held', async () => {
        const ip = freshIp();
        const profileId = await createProfile(victim.auth);
        const pending = (await link(profileId, { ip }, victim.auth, freshIp())).json as LinkedIpBody;
        api.clock.advance(DAY_MS - 60_000);
        expect((await listOf(profileId, victim.auth)).linked_ips.map((entry) => entry.state)).toEqual([
          'pending',
        ]);
        api.clock.advance(120_000);
        expect((await listOf(profileId, victim.auth)).linked_ips).toEqual([]);
        const path = `${api.url}/v1/profiles/${profileId}/linked-ips/${pending.id}`;
        expectProblem(await send(path, { headers: victim.auth }), 404, 'not_found');
        expectProblem(await ddns(pending.proof_url ?? '', ip), 404, 'not_found');
        expect(await publishedAddresses(profileId, 2)).toEqual([]);
      });

      it('answers 403 email_unverified to linking, DDNS slots and their URLs before the address is verified', async () => {
        const unverified = await signUpUnverified();
        // Profile writes stay open, so a new user can try the product before the mail arrives.
        const profileId = await createProfile(unverified.session);
        const ip = freshIp();
        expectProblem(await link(profileId, { ip }, unverified.session, ip), 403, 'email_unverified');
        expectProblem(await link(profileId, { ddns: true }, unverified.session), 403, 'email_unverified');
        // A slot left from before this rule: its URL may neither be read nor rotated.
        const keyedHash = await api.container.getAsync<KeyedHash>(KeyedHash);
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const slotId = crypto.randomUUID();
        const now = api.clock.now();
        await uow.run(async (tx) => {
          await tx.linkedIps.insert({
            id: slotId,
            orgId: unverified.orgId,
            profileId,
            ip: null,
            state: 'pending',
            ddns: true,
            ddnsGeneration: 1,
            ddnsLookup: ddnsLookupOf(keyedHash, slotId, 1),
            createdAt: now,
            updatedAt: now,
          });
        });
        const urlPath = `${api.url}/v1/profiles/${profileId}/linked-ips/${slotId}/ddns`;
        expectProblem(await send(urlPath, { headers: unverified.session }), 403, 'email_unverified');
        expectProblem(
          await send(urlPath, { method: 'POST', headers: unverified.session }),
          403,
          'email_unverified',
        );
        expect((await listOf(profileId, unverified.session)).linked_ips).toHaveLength(1);
      });

      it('rotates every DDNS token and drops every pending claim of the organisation at first verification', async () => {
        const unverified = await signUpUnverified();
        const profileId = await createProfile(unverified.session);
        const keyedHash = await api.container.getAsync<KeyedHash>(KeyedHash);
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        const now = api.clock.now();
        // What a pre-registering attacker could have left under the victim's address before this rule.
        const slotId = crypto.randomUUID();
        const claimId = crypto.randomUUID();
        const claimed = freshIp();
        await uow.run(async (tx) => {
          for (const [id, ip] of [
            [slotId, null],
            [claimId, claimed],
          ] as const) {
            await tx.linkedIps.insert({
              id,
              orgId: unverified.orgId,
              profileId,
              ip,
              state: 'pending',
              ddns: ip === null,
              ddnsGeneration: 1,
              ddnsLookup: ddnsLookupOf(keyedHash, id, 1),
              createdAt: now,
              updatedAt: now,
            });
          }
        });
        const oldSlotUrl = `${api.url}/v1/ddns/${ddnsTokenOf(keyedHash, slotId, 1)}`;
        const oldClaimUrl = `${api.url}/v1/ddns/${ddnsTokenOf(keyedHash, claimId, 1)}`;
        const attackerIp = freshIp();
        expect((await ddns(oldSlotUrl, attackerIp)).status).toBe(200);

        const verified = await send(`${api.url}/v1/auth/verify`, {
          method: 'POST',
          body: { token: unverified.verifyToken },
        });
        expect(verified.status, verified.text).toBe(200);

        expectProblem(await ddns(oldSlotUrl, freshIp()), 404, 'not_found');
        expectProblem(await ddns(oldClaimUrl, claimed), 404, 'not_found');
        const login = await send(`${api.url}/v1/auth/login`, {
          method: 'POST',
          body: { email: unverified.email, password: unverified.password },
        });
        const session = {
          cookie: `svc_session=${/svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1]}`,
        };
        const left = (await listOf(profileId, session)).linked_ips;
        expect(left.map((entry) => entry.id)).toEqual([slotId]);
        // The owner reads the slot's new URL and points their own router at it.
        const fresh = await send(`${api.url}/v1/profiles/${profileId}/linked-ips/${slotId}/ddns`, {
          headers: session,
        });
        expect(fresh.status).toBe(200);
        const ownIp = freshIp();
        expect((await ddns((fresh.json as { update_url: string }).update_url, ownIp)).json).toEqual({
          ip: ownIp,
          changed: true,
        });
      });
    },
  );
}
