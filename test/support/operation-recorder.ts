import { ApiError, OPERATIONS, type OperationId, type SvcClient } from '@svc/sdk';

/** How the calls of one client method settled: answered, or refused with these problem codes. */
interface Outcomes {
  resolved: number;
  refused: Map<string, number>;
}

/**
 * An operation that a test deployment can only reach as a documented error: the code it must answer, and
 * why the success cannot be reached there.
 */
export interface ExpectedRefusal {
  code: string;
  reason: string;
}

/**
 * Records, by dotted method path (`'profiles.linkedIps.ddnsUrl'`), how every call made through the clients
 * it wraps settled: promises when they settle, paginators and streams when a step of their iteration does.
 * A call counts as exercised when it resolved, or when it was refused with the ApiError code its operation
 * is documented to answer in {@link missingOperations}'s `refusals`.
 */
export class OperationRecorder {
  private readonly outcomes = new Map<string, Outcomes>();

  /** `client` with every method call recorded (sub-resources and `withOptions()` clients too). */
  wrap(client: SvcClient): SvcClient {
    return this.proxy(client, '');
  }

  /** How calls of `path` settled so far. */
  outcomesOf(path: string): { resolved: number; refused: string[] } {
    const found = this.outcomes.get(path);
    return { resolved: found?.resolved ?? 0, refused: [...(found?.refused.keys() ?? [])] };
  }

  /**
   * Every entry of OPERATIONS not exercised as expected, as `operationId → method (what happened)`: those
   * of `refusals` must have been refused with their code, every other one must have resolved at least once.
   */
  missingOperations(refusals: Readonly<Partial<Record<OperationId, ExpectedRefusal>>>): string[] {
    const missing: string[] = [];
    for (const [id, path] of Object.entries(OPERATIONS)) {
      const seen = this.outcomesOf(path);
      const refusal = refusals[id as OperationId];
      const exercised = refusal === undefined ? seen.resolved > 0 : seen.refused.includes(refusal.code);
      if (!exercised) {
        missing.push(`${id} → ${path} (resolved ${seen.resolved}, refused [${seen.refused.join(', ')}])`);
      }
    }
    return missing;
  }

  private entry(path: string): Outcomes {
    let found = this.outcomes.get(path);
    if (found === undefined) {
      found = { resolved: 0, refused: new Map() };
      this.outcomes.set(path, found);
    }
    return found;
  }

  private settled(path: string, error?: unknown): void {
    const entry = this.entry(path);
    if (error === undefined) entry.resolved += 1;
    else if (error instanceof ApiError)
      entry.refused.set(error.code, (entry.refused.get(error.code) ?? 0) + 1);
  }

  private proxy<T extends object>(target: T, prefix: string): T {
    return new Proxy(target, {
      get: (object, key, receiver) => {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof key !== 'string') return value;
        const path = `${prefix}${key}`;
        if (typeof value === 'function') {
          return (...args: unknown[]) => this.observe(path, Reflect.apply(value, object, args));
        }
        if (typeof value === 'object' && value !== null) return this.proxy(value, `${path}.`);
        return value;
      },
    });
  }

  /** Hooks the recording onto what a method returned, leaving the value itself as it was for the caller. */
  private observe(path: string, value: unknown): unknown {
    if (path === 'withOptions' && typeof value === 'object' && value !== null) {
      return this.proxy(value, '');
    }
    if (isThenable(value)) {
      value.then(
        () => this.settled(path),
        (error: unknown) => this.settled(path, error),
      );
      return value;
    }
    if (isAsyncIterable(value)) return this.iterable(path, value);
    this.settled(path);
    return value;
  }

  /** A paginator or stream whose iteration steps are recorded (its other methods iterate through it). */
  private iterable<T extends AsyncIterable<unknown>>(path: string, target: T): T {
    const record = <R>(step: Promise<R>): Promise<R> => {
      step.then(
        () => this.settled(path),
        (error: unknown) => this.settled(path, error),
      );
      return step;
    };
    // Only steps that fetch count: `return` (a `break`) settles whether or not anything was fetched.
    const wrapIterator = (iterator: AsyncIterator<unknown>): AsyncIterator<unknown> => ({
      next: (...args) => record(iterator.next(...args)),
      return: (value) => iterator.return?.(value) ?? Promise.resolve({ done: true, value }),
    });
    const proxied: T = new Proxy(target, {
      get: (object, key) => {
        if (key === Symbol.asyncIterator) return () => wrapIterator(object[Symbol.asyncIterator]());
        const value: unknown = Reflect.get(object, key, object);
        if (typeof value !== 'function') return value;
        // A generator's own methods need the generator as `this`; methods such as `toArray` iterate `this`,
        // so called on the proxy their steps are recorded.
        if (key === 'next') {
          return (...args: unknown[]) => record(Promise.resolve(Reflect.apply(value, object, args)));
        }
        if (key === 'return' || key === 'throw') {
          return (...args: unknown[]) => Reflect.apply(value, object, args);
        }
        return (...args: unknown[]) => Reflect.apply(value, proxied, args);
      },
    });
    return proxied;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
