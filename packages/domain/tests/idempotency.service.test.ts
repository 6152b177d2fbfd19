import { AesGcmSecretBox, MemoryIdempotencyStore } from '@svc/adapters';
import {
  assertIdempotencyKey,
  DomainError,
  IDEMPOTENCY_REPLAY_MS,
  IDEMPOTENCY_RUNNING_LEASE_MS,
  IdempotencyService,
} from '@svc/domain';
import { ManualClock } from '@svc/testing/clock';
import { describe, expect, it } from 'vitest';

const created = { status: 201, headers: { Location: '/v1/things/1' }, body: '{"id":1}' };

function setup() {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const store = new MemoryIdempotencyStore();
  const sut = new IdempotencyService(
    store,
    clock,
    new AesGcmSecretBox('a test secret of at least 32 chars.'),
  );
  return { clock, store, sut };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe(IdempotencyService.name, () => {
  it('proceeds with a new key, then replays the stored success for the same request', async () => {
    const { sut } = setup();
    expect(await sut.start('acct', 'k', 'fp')).toEqual({ kind: 'proceed' });
    await sut.finish('acct', 'k', created);
    expect(await sut.start('acct', 'k', 'fp')).toEqual({ kind: 'replay', response: created });
  });

  it('stores the body sealed with the server key, never as it was answered', async () => {
    const { store, sut } = setup();
    await sut.start('acct', 'k', 'fp');
    await sut.finish('acct', 'k', { ...created, body: '{"secret":"svc_shown_once"}' });
    const claim = await store.claim(
      { scope: 'acct', key: 'k', fingerprint: 'fp', createdAt: new Date(0), expiresAt: new Date(1) },
      new Date(0),
    );
    if (claim.claimed) throw new Error('the completed key was claimed again');
    expect(claim.existing.response?.body).toMatch(/^v1\./);
    expect(claim.existing.response?.body).not.toContain('svc_shown_once');
    expect(claim.existing.response?.headers).toEqual(created.headers);
  });

  it('refuses a repeat while the first runs with idempotency_in_progress and a retry hint', async () => {
    const { sut } = setup();
    await sut.start('acct', 'k', 'fp');
    const error = await sut.start('acct', 'k', 'fp').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'idempotency_in_progress', retryAfter: 1 });
  });

  it('refuses the key with another request with idempotency_key_reused', async () => {
    const { sut } = setup();
    await sut.start('acct', 'k', 'fp');
    await sut.finish('acct', 'k', created);
    expect(await codeOf(sut.start('acct', 'k', 'other'))).toBe('idempotency_key_reused');
  });

  it('stores nothing for a failed first request, so the key is free again', async () => {
    const { sut } = setup();
    await sut.start('acct', 'k', 'fp');
    await sut.finish('acct', 'k', { status: 422, headers: {}, body: '{}' });
    expect(await sut.start('acct', 'k', 'other-request')).toEqual({ kind: 'proceed' });
  });

  it('scopes keys per account', async () => {
    const { sut } = setup();
    await sut.start('acct-a', 'k', 'fp');
    expect(await sut.start('acct-b', 'k', 'fp')).toEqual({ kind: 'proceed' });
  });

  it('forgets a stored response after 24 hours', async () => {
    const { clock, sut } = setup();
    await sut.start('acct', 'k', 'fp');
    await sut.finish('acct', 'k', created);
    clock.advance(IDEMPOTENCY_REPLAY_MS - 1000);
    expect((await sut.start('acct', 'k', 'fp')).kind).toBe('replay');
    clock.advance(2000);
    expect(await sut.start('acct', 'k', 'new-request')).toEqual({ kind: 'proceed' });
  });

  it('takes over a running key whose request died with its server after the lease', async () => {
    const { clock, sut } = setup();
    await sut.start('acct', 'k', 'fp');
    clock.advance(IDEMPOTENCY_RUNNING_LEASE_MS + 1);
    expect(await sut.start('acct', 'k', 'fp')).toEqual({ kind: 'proceed' });
  });

  it.each([
    ['', false],
    ['a', true],
    ['k'.repeat(255), true],
    ['k'.repeat(256), false],
    ['has space', false],
    ['tab\t', false],
    ['ünï', false],
    ['~!@#$%^&*()_+{}|:"<>?', true],
  ])('validates key %j (valid: %s)', (key, valid) => {
    if (valid) expect(() => assertIdempotencyKey(key)).not.toThrow();
    else
      expect(() => assertIdempotencyKey(key)).toThrow(
        expect.objectContaining({ code: 'bad_idempotency_key' }),
      );
  });
});
