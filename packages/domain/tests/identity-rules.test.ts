import { MemoryLoginThrottle } from '@svc/adapters';
import {
  API_TOKEN_PATTERN,
  codePointLength,
  DomainError,
  isAllowlisted,
  newApiTokenSecret,
  newOpaqueToken,
  Password,
  type Random,
  randomAlphanumeric,
  scopesOfAccount,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';

/** A Random that replays given bytes, to pin down the sampling. */
class ScriptedRandom implements Random {
  constructor(private readonly script: number[]) {}
  uuid(): string {
    return '00000000-0000-4000-8000-000000000000';
  }
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.script.shift() ?? 0);
  }
}

describe('password rule (spec 5.5.4)', () => {
  it('counts code points: an astral character counts once', () => {
    expect(codePointLength('🔒')).toBe(1);
    expect(codePointLength('é')).toBe(1);
    expect(codePointLength('e\u0301')).toBe(2);
  });

  it.each([
    ['a'.repeat(11), 'password_too_short'],
    ['a'.repeat(12), undefined],
    ['a'.repeat(128), undefined],
    ['a'.repeat(129), 'password_too_long'],
    ['  leading and trailing spaces  ', undefined],
  ])('%j → %s', (value, problem) => {
    const result = Password.safeParse(value);
    expect(result.success).toBe(problem === undefined);
    if (!result.success) expect(result.error.issues[0]).toMatchObject({ params: { problem } });
  });

  it('uses the password as sent, without normalisation', () => {
    const composed = 'caf\u00e9 password!';
    const parsed = Password.parse(composed);
    expect(parsed).toBe(composed);
    expect(parsed).not.toBe(composed.normalize('NFD'));
  });
});

describe('bearer secrets (spec 5.3)', () => {
  it('draws API token secrets as svc_ and 52 alphanumerics', () => {
    const secret = newApiTokenSecret({
      uuid: () => '',
      bytes: (n) => crypto.getRandomValues(new Uint8Array(n)),
    });
    expect(secret).toMatch(API_TOKEN_PATTERN);
    expect(secret).toHaveLength(56);
  });

  it('drops bytes at or above 248 so every character is equally likely', () => {
    expect(randomAlphanumeric(new ScriptedRandom([255, 248, 0, 61, 62, 247]), 4)).toBe('A9A9');
  });

  it('makes opaque tokens of 256 bits with their prefix', () => {
    const token = newOpaqueToken(new ScriptedRandom([]), 'ver_');
    expect(token).toMatch(/^ver_[A-Za-z0-9_-]{43}$/);
  });
});

describe('scopes (spec 5.4)', () => {
  it('gives admin only to operator accounts', () => {
    expect(scopesOfAccount(false).has('admin')).toBe(false);
    expect(scopesOfAccount(true).has('admin')).toBe(true);
    expect([...scopesOfAccount(false)]).toEqual([
      'profiles:read',
      'profiles:write',
      'account:read',
      'logs:read',
      'analytics:read',
      'webhooks:read',
      'webhooks:write',
    ]);
  });
});

describe('invite-mode allowlist', () => {
  const list = ['friends.test', '@corp.test', 'vip@example.test'];
  it.each([
    ['a@friends.test', true],
    ['a@corp.test', true],
    ['vip@example.test', true],
    ['other@example.test', false],
    ['a@sub.friends.test', false],
    ['a@friends.test.evil', false],
  ])('%s → %s', (email, allowed) => {
    expect(isAllowlisted(email, list)).toBe(allowed);
  });
});

/** The seconds a throttle's refusal asks to wait, or undefined when it admits the attempt (which is ended). */
function refusalOf(sut: MemoryLoginThrottle, keys: string[]): number | undefined {
  try {
    sut.admit(keys).end();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'rate_limited') return error.retryAfter;
    throw error;
  }
}

describe(MemoryLoginThrottle.name, () => {
  it('spaces attempts 100 ms after one failure, doubling to at most 5 s, per key', () => {
    let now = 0;
    const sut = new MemoryLoginThrottle(() => now);
    expect(sut.delayFor(['email:a'])).toBe(0);
    const delays: number[] = [];
    for (let failure = 0; failure < 8; failure += 1) {
      now += 5_000;
      sut.admit(['email:a', 'account:1']).fail('password');
      delays.push(sut.delayFor(['email:a']));
    }
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    expect(sut.delayFor(['email:b'])).toBe(0);
    expect(sut.delayFor(['email:other-address', 'account:1'])).toBe(5000);
    expect(refusalOf(sut, ['email:other-address', 'account:1'])).toBe(5);
    now += 4_999;
    expect(refusalOf(sut, ['email:a'])).toBe(1);
    now += 1;
    expect(refusalOf(sut, ['email:a'])).toBeUndefined();
    now += 16 * 60_000;
    expect(sut.delayFor(['email:a'])).toBe(0);
  });

  it('admits one attempt of a key at a time: the others are refused until it ends', () => {
    const sut = new MemoryLoginThrottle(() => 0);
    const running = sut.admit(['email:a', 'account:1']);
    expect(refusalOf(sut, ['email:a'])).toBe(1);
    expect(refusalOf(sut, ['email:b', 'account:1'])).toBe(1);
    expect(refusalOf(sut, ['email:b'])).toBeUndefined();
    running.end();
    expect(refusalOf(sut, ['email:a', 'account:1'])).toBeUndefined();
  });

  it('forgets failures after a successful sign-in', () => {
    let now = 0;
    const sut = new MemoryLoginThrottle(() => now);
    sut.admit(['email:a']).fail('password');
    now += 100;
    sut.admit(['email:a']).succeed();
    expect(sut.delayFor(['email:a'])).toBe(0);
  });

  it('locks the second-factor step after ten wrong codes, for 15 minutes after the last', () => {
    let now = 0;
    const sut = new MemoryLoginThrottle(() => now);
    for (let failure = 0; failure < 10; failure += 1) {
      now += 5_000;
      const attempt = sut.admit(['account:1']);
      attempt.assertSecondFactorOpen();
      attempt.fail('second_factor');
    }
    now += 5_000;
    const locked = sut.admit(['email:a', 'account:1']);
    expect(() => locked.assertSecondFactorOpen()).toThrow(
      expect.objectContaining({ code: 'rate_limited', retryAfter: 895 }),
    );
    locked.end();
    now += 895_000;
    const open = sut.admit(['email:a', 'account:1']);
    expect(() => open.assertSecondFactorOpen()).not.toThrow();
    open.end();
  });
});
