import { postgresServerSkipReason } from '@svc/testing/postgres';
import { problemOf, type RawAnswer } from '../support/http.js';

// Where the concurrent writes are sent, and how their answers are counted and timed.
export const CONCURRENCY = 50;

/** One measured scenario, printed in a table when the file ends. */
export interface Figure {
  target: string;
  scenario: string;
  succeeded: number;
  refused: string;
  requests: number;
  ms: number;
}

interface Target {
  name: string;
  storage: 'pglite' | 'postgres';
  servers: number;
  skip: boolean;
}

export const TARGETS: Target[] = [
  { name: 'PGlite, one server', storage: 'pglite', servers: 1, skip: false },
  {
    name: 'PostgreSQL server, one server',
    storage: 'postgres',
    servers: 1,
    skip: postgresServerSkipReason !== undefined,
  },
  {
    name: 'PostgreSQL server, two servers',
    storage: 'postgres',
    servers: 2,
    skip: postgresServerSkipReason !== undefined,
  },
];

export function codeOf(answer: RawAnswer): string {
  return String(problemOf(answer).code);
}

/** Counts answers by `status code` (or status alone for successes), e.g. `{ '412 version_mismatch': 49 }`. */
export function tally(answers: RawAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.status < 400 ? String(answer.status) : `${answer.status} ${codeOf(answer)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}
