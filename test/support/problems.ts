import { expect } from 'vitest';
import { problemOf, type RawAnswer } from './http.js';

/** Asserts that `answer` is a problem document with `status` and `code`, and returns it. */
export function expectProblem(answer: RawAnswer, status: number, code: string): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  const problem = problemOf(answer);
  expect(problem.code).toBe(code);
  return problem;
}
