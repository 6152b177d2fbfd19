import type pg from 'pg';
import { type StorageCallTracer, sqlOperation } from '../tracing/storage-call-tracer.js';

/** A query object that runs itself (a cursor or a stream): it has no single answer to wait for. */
function isSubmittable(statement: unknown): boolean {
  return typeof statement === 'object' && statement !== null && 'submit' in statement;
}

function sqlOf(statement: unknown): string {
  if (typeof statement === 'string') return statement;
  if (typeof statement === 'object' && statement !== null && 'text' in statement) {
    return typeof statement.text === 'string' ? statement.text : '';
  }
  return '';
}

/**
 * Makes every query of `client` a `postgresql <OPERATION>` span. Installed on each connection the pool opens,
 * so pool queries and transactions alike are traced in this one place. The pool calls `client.query` with a
 * callback; the callback form is run through the promise form so the span ends when the answer (or the
 * error) is handed over. The replacement is installed with `defineProperty` because pg's overloaded
 * `query` signature has no single function type to assign.
 */
export function traceClientQueries(client: pg.ClientBase, tracer: StorageCallTracer): void {
  const query: (...args: unknown[]) => unknown = client.query.bind(client);
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]): unknown => {
      const [statement] = args;
      if (isSubmittable(statement)) return query(...args);
      const last = args[args.length - 1];
      const callback = typeof last === 'function' ? last : undefined;
      const promiseArgs = callback === undefined ? args : args.slice(0, -1);
      const operation = sqlOperation(sqlOf(statement));
      const answer = tracer(
        `postgresql ${operation}`,
        { 'db.system': 'postgresql', 'db.operation': operation },
        () => Promise.resolve(query(...promiseArgs)),
      );
      if (callback === undefined) return answer;
      answer.then(
        (result) => callback(null, result),
        (error: unknown) => callback(error),
      );
      return undefined;
    },
  });
}
