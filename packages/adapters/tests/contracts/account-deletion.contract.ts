import { randomUUID } from 'node:crypto';
import type { AccountRecord, IdentityRepositories } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The identity repositories under test. */
export interface AccountDeletionUnderTest {
  repositories: IdentityRepositories;
  dispose(): Promise<void>;
}

const T0 = Date.UTC(2026, 10, 23, 12);
const at = (offsetMs = 0) => new Date(T0 + offsetMs);
const HOUR = 3_600_000;

/**
 * The deletion methods of every AccountRepository (spec 3, Account rows): a deletion starts once, cancels only
 * before its erasure begins, each due account is claimed for erasure by one caller even when claims race, and
 * erasure removes every credential while keeping the anonymised rows. Every test leaves no claimable account
 * behind, so that claims in the next one see only its own.
 */
export function runAccountDeletionContract(
  name: string,
  open: () => Promise<AccountDeletionUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`AccountRepository deletion contract: ${name}`, () => {
    let sut: AccountDeletionUnderTest;
    beforeAll(async () => {
      sut = await open();
    }, 60_000);
    afterAll(async () => sut?.dispose());

    const signUp = async (): Promise<AccountRecord> => {
      const orgId = randomUUID();
      const account: AccountRecord = {
        id: randomUUID(),
        orgId,
        role: 'owner',
        email: `deletion-${randomUUID()}@example.test`,
        emailVerifiedAt: at(),
        passwordHash: 'hash',
        plan: 'free',
        mfa: false,
        isAdmin: false,
        createdAt: at(),
        deletionRequestedAt: null,
        deletionDueAt: null,
      };
      const created = await sut.repositories.accounts.createWithOrganisation(
        { id: orgId, name: 'org', createdAt: at() },
        account,
      );
      expect(created).toBe(true);
      return account;
    };

    it('starts a deletion once, recording when it was requested and when it is due', async () => {
      const { accounts } = sut.repositories;
      const owner = await signUp();
      expect(await accounts.startDeletion(owner.id, at(), at(HOUR))).toBe(true);
      expect(await accounts.startDeletion(owner.id, at(1), at(2 * HOUR))).toBe(false);
      expect(await accounts.findById(owner.id)).toMatchObject({
        deletionRequestedAt: at(),
        deletionDueAt: at(HOUR),
      });
      expect(await accounts.startDeletion(randomUUID(), at(), at(HOUR))).toBe(false);
      expect(await accounts.cancelDeletion(owner.id)).toBe('canceled');
    });

    it('cancels a pending deletion (fields cleared), and answers not_pending without one', async () => {
      const { accounts } = sut.repositories;
      const owner = await signUp();
      expect(await accounts.cancelDeletion(owner.id)).toBe('not_pending');
      expect(await accounts.cancelDeletion(randomUUID())).toBe('not_pending');
      expect(await accounts.startDeletion(owner.id, at(), at(HOUR))).toBe(true);
      expect(await accounts.cancelDeletion(owner.id)).toBe('canceled');
      expect(await accounts.findById(owner.id)).toMatchObject({
        deletionRequestedAt: null,
        deletionDueAt: null,
      });
      expect(await accounts.cancelDeletion(owner.id)).toBe('not_pending');
      expect(await accounts.startDeletion(owner.id, at(), at(HOUR))).toBe(true);
      expect(await accounts.cancelDeletion(owner.id)).toBe('canceled');
    });

    it('claims each due account once when claims race, none before it is due, and then refuses to cancel', async () => {
      const { accounts } = sut.repositories;
      const due = 10 * HOUR;
      const [first, second, later] = [await signUp(), await signUp(), await signUp()];
      expect(await accounts.startDeletion(first.id, at(), at(due))).toBe(true);
      expect(await accounts.startDeletion(second.id, at(), at(due))).toBe(true);
      expect(await accounts.startDeletion(later.id, at(), at(due + HOUR))).toBe(true);

      expect(await accounts.claimDueErasure(at(due - 1))).toBeNull();
      const claims = await Promise.all([
        accounts.claimDueErasure(at(due)),
        accounts.claimDueErasure(at(due)),
      ]);
      expect(claims.map((claimed) => claimed?.id).sort()).toEqual([first.id, second.id].sort());
      expect(await accounts.claimDueErasure(at(due))).toBeNull();
      expect(await accounts.cancelDeletion(first.id)).toBe('erasure_started');

      expect((await accounts.claimDueErasure(at(due + HOUR)))?.id).toBe(later.id);
      expect(await accounts.claimDueErasure(at(due + 2 * HOUR))).toBeNull();
      expect(await accounts.cancelDeletion(later.id)).toBe('erasure_started');
    });

    it('erases a claimed account: credentials gone, email and password anonymised, the row kept', async () => {
      const repositories = sut.repositories;
      const owner = await signUp();
      const sessionId = randomUUID();
      await repositories.sessions.create({
        id: sessionId,
        accountId: owner.id,
        tokenHash: `session-${sessionId}`,
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
      const secretHash = `token-${randomUUID()}`;
      await repositories.apiTokens.create({
        id: randomUUID(),
        accountId: owner.id,
        orgId: owner.orgId,
        name: 'cli',
        scopes: ['account:read'],
        secretHash,
        prefix: 'svc_abcd',
        createdAt: at(),
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      });
      const resetHash = `reset-${randomUUID()}`;
      await repositories.oneTimeTokens.create({
        hash: resetHash,
        purpose: 'reset',
        accountId: owner.id,
        email: owner.email,
        createdAt: at(),
        expiresAt: at(HOUR),
        usedAt: null,
      });
      await repositories.secondFactors.replaceRecoveryCodes(owner.id, ['code-a', 'code-b'], at());
      expect(
        await repositories.passkeys.create({
          id: randomUUID(),
          accountId: owner.id,
          credentialId: `credential-${randomUUID()}`,
          publicKey: new Uint8Array([1, 2, 3]),
          counter: 0,
          transports: ['internal'],
          aaguid: '00000000-0000-0000-0000-000000000000',
          name: 'laptop',
          createdAt: at(),
          lastUsedAt: null,
        }),
      ).toBe(true);

      const due = 20 * HOUR;
      expect(await repositories.accounts.startDeletion(owner.id, at(), at(due))).toBe(true);
      expect((await repositories.accounts.claimDueErasure(at(due)))?.id).toBe(owner.id);
      await repositories.accounts.erase(owner.id, at(due));

      const erased = await repositories.accounts.findById(owner.id);
      expect(erased).toMatchObject({
        id: owner.id,
        orgId: owner.orgId,
        email: `erased-${owner.id}@erased.invalid`,
        passwordHash: null,
      });
      expect(await repositories.accounts.findByEmail(owner.email)).toBeNull();
      expect(await repositories.sessions.findById(owner.id, sessionId)).toBeNull();
      expect(await repositories.apiTokens.findBySecretHash(secretHash)).toBeNull();
      expect(await repositories.oneTimeTokens.find('reset', resetHash)).toBeNull();
      expect(await repositories.secondFactors.remainingRecoveryCodes(owner.id)).toBe(0);
      expect(await repositories.passkeys.listByAccount(owner.id)).toEqual([]);
      expect((await repositories.secondFactors.totp(owner.id)).secret).toBeNull();
      expect(await repositories.accounts.cancelDeletion(owner.id)).toBe('erasure_started');
    });
  });
}
