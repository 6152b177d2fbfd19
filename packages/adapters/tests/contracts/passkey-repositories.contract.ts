import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountRecord, IdentityRepositories, PasskeyRecord, SessionRow } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The identity repositories under test (passkeys and WebAuthn challenges among them). */
export interface PasskeysUnderTest {
  repositories: IdentityRepositories;
  dispose(): Promise<void>;
}

const at = (offsetMs = 0) => new Date(Date.UTC(2026, 10, 23, 12) + offsetMs);

async function newAccount(repositories: IdentityRepositories, passwordHash: string | null = 'hash') {
  const orgId = randomUUID();
  const account: AccountRecord = {
    id: randomUUID(),
    orgId,
    role: 'owner',
    email: `passkeys-${randomUUID()}@example.test`,
    emailVerifiedAt: null,
    passwordHash,
    plan: 'free',
    mfa: false,
    isAdmin: false,
    createdAt: at(),
    deletionRequestedAt: null,
    deletionDueAt: null,
  };
  await repositories.accounts.createWithOrganisation(
    { id: orgId, name: account.email, createdAt: at() },
    account,
  );
  return account;
}

function passkey(accountId: string, overrides: Partial<PasskeyRecord> = {}): PasskeyRecord {
  return {
    id: randomUUID(),
    accountId,
    credentialId: randomBytes(32).toString('base64url'),
    publicKey: Uint8Array.from(randomBytes(77)),
    counter: 0,
    transports: ['hybrid', 'internal'],
    aaguid: '00000000-0000-0000-0000-000000000000',
    name: 'Passkey 1',
    createdAt: at(),
    lastUsedAt: null,
    ...overrides,
  };
}

function session(accountId: string): SessionRow {
  return {
    id: randomUUID(),
    accountId,
    tokenHash: randomUUID(),
    tokenIssuedAt: at(),
    previousTokenHash: null,
    previousValidUntil: null,
    createdAt: at(),
    lastUsedAt: at(),
    userAgent: 'contract',
    ip: '127.0.0.1',
    method: 'password',
    strong: false,
    restricted: false,
    revokedAt: null,
  };
}

/**
 * What every store of passkeys and WebAuthn challenges must guarantee, whichever engine: a credential id is
 * stored once, a challenge is used once, and a signature counter only goes up, even when requests race.
 */
export function runPasskeyRepositoriesContract(
  name: string,
  open: () => Promise<PasskeysUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`passkey repositories contract: ${name}`, () => {
    let sut: PasskeysUnderTest;
    beforeAll(async () => {
      sut = await open();
    }, 60_000);
    afterAll(async () => sut?.dispose());

    it('stores a passkey with its key bytes, lists oldest first, and refuses a credential id twice', async () => {
      const owner = await newAccount(sut.repositories);
      const first = passkey(owner.id);
      const second = passkey(owner.id, { createdAt: at(1_000), name: 'Passkey 2' });
      expect(await sut.repositories.passkeys.create(second)).toBe(true);
      expect(await sut.repositories.passkeys.create(first)).toBe(true);
      expect(await sut.repositories.passkeys.listByAccount(owner.id)).toEqual([first, second]);
      const other = await newAccount(sut.repositories);
      const copy = passkey(other.id, { credentialId: first.credentialId });
      const raced = await Promise.all([
        sut.repositories.passkeys.create(copy),
        sut.repositories.passkeys.create({ ...copy, id: randomUUID() }),
      ]);
      expect(raced).toEqual([false, false]);
      expect(await sut.repositories.passkeys.listByAccount(other.id)).toEqual([]);
      const fresh = passkey(other.id);
      const racedFresh = await Promise.all(
        Array.from({ length: 4 }, () => sut.repositories.passkeys.create({ ...fresh, id: randomUUID() })),
      );
      expect(racedFresh.filter(Boolean)).toHaveLength(1);
      expect(await sut.repositories.passkeys.listByAccount(other.id)).toHaveLength(1);
      expect(await sut.repositories.passkeys.findByCredentialId(first.credentialId)).toEqual(first);
      expect(await sut.repositories.passkeys.findByCredentialId('unknown')).toBeNull();
    });

    it('renames and deletes only the account’s own passkey', async () => {
      const owner = await newAccount(sut.repositories);
      const stranger = await newAccount(sut.repositories);
      const stored = passkey(owner.id);
      await sut.repositories.passkeys.create(stored);
      expect(await sut.repositories.passkeys.rename(stranger.id, stored.id, 'Mine')).toBeNull();
      expect(await sut.repositories.passkeys.rename(owner.id, stored.id, 'Phone')).toEqual({
        ...stored,
        name: 'Phone',
      });
      expect(await sut.repositories.passkeys.delete(stranger.id, stored.id)).toBe(false);
      expect(await sut.repositories.passkeys.lockCredentials(owner.id)).toEqual({
        hasPassword: true,
        passkeyIds: [stored.id],
      });
      expect(await sut.repositories.passkeys.delete(owner.id, stored.id)).toBe(true);
      expect(await sut.repositories.passkeys.delete(owner.id, stored.id)).toBe(false);
      const passwordless = await newAccount(sut.repositories, null);
      expect(await sut.repositories.passkeys.lockCredentials(passwordless.id)).toEqual({
        hasPassword: false,
        passkeyIds: [],
      });
      expect(await sut.repositories.passkeys.lockCredentials(randomUUID())).toBeNull();
    });

    it('records a use only when the counter goes up (or both are zero), once under concurrent use', async () => {
      const owner = await newAccount(sut.repositories);
      const counted = passkey(owner.id, { counter: 5 });
      await sut.repositories.passkeys.create(counted);
      expect(await sut.repositories.passkeys.recordUse(counted.id, 5, at(1))).toBe(false);
      expect(await sut.repositories.passkeys.recordUse(counted.id, 4, at(1))).toBe(false);
      const raced = await Promise.all(
        Array.from({ length: 6 }, () => sut.repositories.passkeys.recordUse(counted.id, 6, at(2))),
      );
      expect(raced.filter(Boolean)).toHaveLength(1);
      const after = await sut.repositories.passkeys.findByCredentialId(counted.credentialId);
      expect(after).toMatchObject({ counter: 6, lastUsedAt: at(2) });
      expect(await sut.repositories.passkeys.recordUse(counted.id, 0, at(3))).toBe(false);
      // Authenticators without a counter always report zero.
      const uncounted = passkey(owner.id);
      await sut.repositories.passkeys.create(uncounted);
      expect(await sut.repositories.passkeys.recordUse(uncounted.id, 0, at(4))).toBe(true);
      expect(await sut.repositories.passkeys.recordUse(uncounted.id, 0, at(5))).toBe(true);
      expect(await sut.repositories.passkeys.recordUse(uncounted.id, 1, at(6))).toBe(true);
      expect(await sut.repositories.passkeys.recordUse(uncounted.id, 0, at(7))).toBe(false);
    });

    it('consumes a challenge once under concurrent use, only for its ceremony, session and lifetime', async () => {
      const owner = await newAccount(sut.repositories);
      const own = session(owner.id);
      const other = session(owner.id);
      await sut.repositories.sessions.create(own);
      await sut.repositories.sessions.create(other);
      const challenges = sut.repositories.webauthnChallenges;
      const registration = {
        challengeHash: randomUUID(),
        ceremony: 'registration' as const,
        sessionId: own.id,
        createdAt: at(),
        expiresAt: at(120_000),
        usedAt: null,
      };
      await challenges.create(registration);
      expect(await challenges.consume('authentication', registration.challengeHash, null, at(1))).toBeNull();
      expect(
        await challenges.consume('registration', registration.challengeHash, other.id, at(1)),
      ).toBeNull();
      expect(await challenges.consume('registration', registration.challengeHash, null, at(1))).toBeNull();
      const raced = await Promise.all(
        Array.from({ length: 8 }, () =>
          challenges.consume('registration', registration.challengeHash, own.id, at(2)),
        ),
      );
      expect(raced.filter((row) => row !== null)).toEqual([{ ...registration, usedAt: at(2) }]);

      const signIn = {
        ...registration,
        challengeHash: randomUUID(),
        ceremony: 'authentication' as const,
        sessionId: null,
      };
      await challenges.create(signIn);
      expect(await challenges.consume('authentication', signIn.challengeHash, null, at(120_000))).toBeNull();
      await challenges.prune(at(120_001));
      expect(await challenges.consume('authentication', signIn.challengeHash, null, at(1))).toBeNull();
      const live = { ...signIn, challengeHash: randomUUID(), expiresAt: at(240_000) };
      await challenges.create(live);
      await challenges.prune(at(120_001));
      expect(
        await challenges.consume('authentication', live.challengeHash, null, at(130_000)),
      ).not.toBeNull();
    });
  });
}
