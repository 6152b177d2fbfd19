import { Readiness } from '@svc/http-server';
import { describe, expect, it } from 'vitest';

/** A dependency that never answers. */
const never = <T>() => new Promise<T>(() => undefined);

/** What /readyz decides from its dependencies (issue 10: readiness checks PostgreSQL with a short time-out). */
describe(Readiness.name, () => {
  it('is not ready while starting', async () => {
    const sut = new Readiness(50);
    expect(await sut.report()).toMatchObject({ status: 'not_ready', reason: 'starting' });
  });

  it('is ready when PostgreSQL answers, and does not probe an unopened columnar store', async () => {
    const sut = new Readiness(50);
    let pinged = false;
    sut.serving({
      postgres: async () => undefined,
      columnar: {
        isOpen: () => false,
        ping: async () => {
          pinged = true;
          return true;
        },
      },
      bus: 'nats',
    });
    expect(await sut.report()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', columnar: 'unopened', bus: 'configured' },
    });
    expect(pinged).toBe(false);
  });

  it('is not ready when PostgreSQL fails or does not answer within the time-out', async () => {
    const failing = new Readiness(50);
    failing.serving({ postgres: () => Promise.reject(new Error('connection refused')), bus: 'in_process' });
    expect(await failing.report()).toMatchObject({ status: 'not_ready', reason: 'postgres_failing' });
    const hanging = new Readiness(50);
    hanging.serving({ postgres: never<void>, bus: 'in_process' });
    expect(await hanging.report()).toMatchObject({
      status: 'not_ready',
      reason: 'postgres_failing',
      checks: { postgres: 'failing' },
    });
  });

  it('stays ready when an open columnar store fails: only log queries need it', async () => {
    const sut = new Readiness(50);
    sut.serving({
      postgres: async () => undefined,
      columnar: { isOpen: () => true, ping: never<boolean> },
      bus: 'in_process',
    });
    expect(await sut.report()).toMatchObject({ status: 'ready', checks: { columnar: 'failing' } });
  });

  it('is not ready from the start of shutdown, even when the checks were already running', async () => {
    const sut = new Readiness(50);
    let answer: () => void = () => undefined;
    sut.serving({
      postgres: () =>
        new Promise<void>((resolve) => {
          answer = resolve;
        }),
      bus: 'in_process',
    });
    const report = sut.report();
    sut.shuttingDown();
    answer();
    expect(await report).toMatchObject({ status: 'not_ready', reason: 'shutting_down' });
    expect(await sut.report()).toMatchObject({ status: 'not_ready', reason: 'shutting_down' });
  });
});
