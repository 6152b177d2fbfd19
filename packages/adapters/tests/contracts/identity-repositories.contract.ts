import { randomUUID } from 'node:crypto';
import type { AccountRecord, IdentityRepositories } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The identity repositories under test, and how to count organisations (no orphans after a lost race). */
export interface IdentityUnderTest {
  repositories: IdentityRepositories;
  organisationCount(): Promise<number>;
  dispose(): Promise<void>;
}

const at = (offsetMs = 0) => new Date(Date.UTC(2026, 10, 23, 12) + offsetMs);

function account(email: string): {
  org: { id: string; name: string; createdAt: Date };
  account: AccountRecord;
} {
  const orgId = randomUUID();
  return {
    org: { id: orgId, name: email, createdAt: at() },
    account: {
      id: randomUUID(),
      orgId,
      role: 'owner',
      email,
      emailVerifiedAt: null,
      passwordHash: 'hash',
      plan: 'free',
      mfa: false,
      isAdmin: false,
      createdAt: at(),
      deletionRequestedAt: null,
      deletionDueAt: null,
    },
  };
}

/**
 * What every identity store must guarantee, whichever engine: each single-use thing is used once even when
 * requests race, across connections.
 */
export function runIdentityRepositoriesContract(
  name: string,
  open: () => Promise<IdentityUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`identity repositories contract: ${name}`, () => {
    let sut: IdentityUnderTest;
    beforeAll(async () => {
      sut = await open();
    }, 60_000);
    afterAll(async () => sut?.dispose());

    it('registers an address once when two signups race, leaving no orphan organisation', async () => {
      const before = await sut.organisationCount();
      const email = `race-${randomUUID()}@example.test`;
      const [first, second] = [account(email), account(email)];
      const results = await Promise.all([
        sut.repositories.accounts.createWithOrganisation(first.org, first.account),
        sut.repositories.accounts.createWithOrganisation(second.org, second.account),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await sut.organisationCount()).toBe(before + 1);
      const stored = await sut.repositories.accounts.findByEmail(email);
      expect(stored?.orgId).toBe(results[0] === true ? first.org.id : second.org.id);
    });

    it('consumes a one-time token once under concurrent use', async () => {
      const { org, account: owner } = account(`ott-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const hash = randomUUID();
      await sut.repositories.oneTimeTokens.create({
        purpose: 'verify',
        hash,
        accountId: owner.id,
        email: owner.email,
        createdAt: at(),
        expiresAt: at(60_000),
        usedAt: null,
      });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => sut.repositories.oneTimeTokens.consume('verify', hash, at(1))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await sut.repositories.oneTimeTokens.find('verify', hash))?.usedAt).toEqual(at(1));
      expect(await sut.repositories.oneTimeTokens.find('reset', hash)).toBeNull();
    });

    it('verifies an address once when verifications race: one call reports the first verification', async () => {
      const { org, account: owner } = account(`verify-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          sut.repositories.accounts.markEmailVerified(owner.id, at(index)),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = await sut.repositories.accounts.findById(owner.id);
      expect(stored?.emailVerifiedAt).toEqual(at(results.indexOf(true)));
      expect(await sut.repositories.accounts.markEmailVerified(owner.id, at(99))).toBe(false);
    });

    it('tells whether an unused, unexpired token of a purpose is out for an address', async () => {
      const { org, account: owner } = account(`live-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const tokens = sut.repositories.oneTimeTokens;
      expect(await tokens.hasLive('reset', owner.email, at())).toBe(false);
      const token = {
        purpose: 'reset' as const,
        hash: randomUUID(),
        accountId: owner.id,
        email: owner.email,
        createdAt: at(),
        expiresAt: at(60_000),
        usedAt: null,
      };
      await tokens.create(token);
      expect(await tokens.hasLive('reset', owner.email, at(1))).toBe(true);
      expect(await tokens.hasLive('verify', owner.email, at(1))).toBe(false);
      expect(await tokens.hasLive('reset', `other-${owner.email}`, at(1))).toBe(false);
      expect(await tokens.hasLive('reset', owner.email, at(60_000))).toBe(false);
      await tokens.consume('reset', token.hash, at(2));
      expect(await tokens.hasLive('reset', owner.email, at(3))).toBe(false);
    });

    it('admits exactly max_uses signups with one invite under concurrent use', async () => {
      const codeHash = randomUUID();
      await sut.repositories.invites.create({
        id: randomUUID(),
        codeHash,
        prefix: 'inv_x',
        maxUses: 3,
        uses: 0,
        expiresAt: at(60_000),
        revokedAt: null,
        createdAt: at(),
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => sut.repositories.invites.consumeUse(codeHash, at(1))),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      expect(await sut.repositories.invites.consumeUse(codeHash, at(2))).toBe(false);
    });

    it('refuses an expired or revoked invite', async () => {
      const expired = randomUUID();
      const revoked = randomUUID();
      for (const [codeHash, id] of [
        [expired, randomUUID()],
        [revoked, randomUUID()],
      ] as const) {
        await sut.repositories.invites.create({
          id,
          codeHash,
          prefix: 'inv_y',
          maxUses: 5,
          uses: 0,
          expiresAt: at(1_000),
          revokedAt: null,
          createdAt: at(),
        });
      }
      expect(await sut.repositories.invites.revoke(revoked, at(1))).toBe(true);
      expect(await sut.repositories.invites.consumeUse(revoked, at(2))).toBe(false);
      expect(await sut.repositories.invites.consumeUse(expired, at(1_000))).toBe(false);
    });

    it('renews a session once when two requests race; the loser still finds it by the previous token', async () => {
      const { org, account: owner } = account(`session-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const id = randomUUID();
      await sut.repositories.sessions.create({
        id,
        accountId: owner.id,
        tokenHash: 'old',
        tokenIssuedAt: at(),
        previousTokenHash: null,
        previousValidUntil: null,
        createdAt: at(),
        lastUsedAt: at(),
        userAgent: 'test',
        ip: '127.0.0.1',
        method: 'password',
        strong: false,
        restricted: false,
        revokedAt: null,
      });
      const results = await Promise.all(
        ['new-a', 'new-b'].map((tokenHash) =>
          sut.repositories.sessions.renew(id, 'old', {
            tokenHash,
            issuedAt: at(1),
            previousValidUntil: at(30_000),
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await sut.repositories.sessions.findByTokenHash('old', at(10_000)))?.id).toBe(id);
      expect(await sut.repositories.sessions.findByTokenHash('old', at(30_000))).toBeNull();
      const winner = results[0] === true ? 'new-a' : 'new-b';
      expect((await sut.repositories.sessions.findByTokenHash(winner, at(30_000)))?.id).toBe(id);
      expect(await sut.repositories.sessions.revokeAllExcept(owner.id, null, at(2))).toBe(1);
      expect(await sut.repositories.sessions.findByTokenHash(winner, at(3))).toBeNull();
    });

    it('claims the account-exists email once a minute under concurrent signups', async () => {
      const { org, account: owner } = account(`exists-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const claims = await Promise.all(
        Array.from({ length: 5 }, () =>
          sut.repositories.accounts.claimAccountExistsMail(owner.id, at(0), at(-60_000)),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await sut.repositories.accounts.claimAccountExistsMail(owner.id, at(30_000), at(-30_000))).toBe(
        false,
      );
      expect(await sut.repositories.accounts.claimAccountExistsMail(owner.id, at(61_000), at(1_000))).toBe(
        true,
      );
    });

    it('pages API tokens newest first by (created_at, id) without repeats or gaps', async () => {
      const { org, account: owner } = account(`tokens-${randomUUID()}@example.test`);
      await sut.repositories.accounts.createWithOrganisation(org, owner);
      const ids: string[] = [];
      for (let n = 0; n < 5; n += 1) {
        const id = randomUUID();
        ids.push(id);
        await sut.repositories.apiTokens.create({
          id,
          accountId: owner.id,
          orgId: org.id,
          name: `t${n}`,
          scopes: ['account:read'],
          secretHash: randomUUID(),
          prefix: 'svc_abcd',
          createdAt: at(n < 2 ? 0 : n * 1000),
          expiresAt: null,
          lastUsedAt: null,
          revokedAt: null,
        });
      }
      const seen: string[] = [];
      let after: { createdAt: Date; id: string } | null = null;
      for (;;) {
        const page = await sut.repositories.apiTokens.listByAccount(owner.id, { limit: 2, after });
        if (page.length === 0) break;
        seen.push(...page.map((row) => row.name));
        const last = page.at(-1);
        if (last === undefined) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(seen.slice(0, 3)).toEqual(['t4', 't3', 't2']);
      expect(seen.slice(3).sort()).toEqual(['t0', 't1']);
      expect(await sut.repositories.apiTokens.revoke(owner.id, ids[0] ?? '', at(9))).toBe(true);
      expect(await sut.repositories.apiTokens.revoke(randomUUID(), ids[1] ?? '', at(9))).toBe(false);
      const live = await sut.repositories.apiTokens.listByAccount(owner.id, { limit: 10, after: null });
      expect(live.map((row) => row.name).sort()).toEqual(['t1', 't2', 't3', 't4']);
    });
  });
}
