import { DomainError } from '@svc/domain';
import { problemFromError } from '@svc/http-server';
import { describe, expect, it } from 'vitest';

/**
 * The one problem mapper (spec 7) on failures of a dependency out of reach: 503 (code internal) with
 * Retry-After, where a storage engine's error would otherwise have been a 500 (issue 10, faults).
 */
const context = { requestId: 'request-1', problemBase: 'http://127.0.0.1/problems' };

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe(problemFromError.name, () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'PostgreSQL shutting down (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    [
      'a write reaching a standby or a demoted primary (25006)',
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
    ],
    ['PostgreSQL crash shutdown (57P02)', withCode('terminating connection because of crash', '57P02')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    [
      'a client broken by an earlier loss',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a pool connect time-out', new Error('timeout exceeded when trying to connect')],
    [
      'a cause chain (fetch failed)',
      new TypeError('fetch failed', { cause: withCode('socket hang up', 'ECONNRESET') }),
    ],
    [
      'an aggregate of refused attempts',
      new AggregateError([withCode('connect ECONNREFUSED ::1:8123', 'ECONNREFUSED')]),
    ],
  ])('answers %s with 503 (code internal) and Retry-After', (_name, error) => {
    const problem = problemFromError(error, context);
    expect(problem.status).toBe(503);
    expect(problem.retryAfter).toBe(1);
    expect(problem.body).toMatchObject({
      status: 503,
      code: 'internal',
      type: 'http://127.0.0.1/problems/internal',
      request_id: 'request-1',
      retry_after: 1,
    });
    // Nothing of the cause reaches the client.
    expect(problem.body.detail).toBe('A service this server depends on is unavailable; retry shortly.');
  });

  it.each([
    ['a plain failure', new Error('secret internal detail')],
    ['a constraint violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error (42601)', withCode('syntax error at or near "FROM"', '42601')],
  ])('still answers %s with 500 internal', (_name, error) => {
    expect(problemFromError(error, context).body.code).toBe('internal');
  });

  it('keeps the code of a domain error', () => {
    const error = new DomainError('node_offline', 'No node is connected.', { retryAfter: 30 });
    expect(problemFromError(error, context)).toMatchObject({ status: 503, body: { code: 'node_offline' } });
  });
});
