import type { ProblemCode } from '@svc/domain';
import type { Response } from 'express';
import { type ProblemResponse, problemFor } from '../problems/problem-document.js';
import { localsOf } from './request-locals.js';

/** Writes a problem document (spec section 7) with Retry-After when it has one. */
export function writeProblem(res: Response, problem: ProblemResponse): void {
  if (problem.retryAfter !== undefined) res.setHeader('Retry-After', String(problem.retryAfter));
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.body));
}

/** Answers with the problem for `code`. */
export function sendProblem(
  res: Response,
  problemBase: string,
  code: ProblemCode,
  detail: string,
  extra: { retryAfter?: number; headers?: Record<string, string> } = {},
): void {
  for (const [name, value] of Object.entries(extra.headers ?? {})) res.setHeader(name, value);
  writeProblem(res, problemFor(code, detail, { requestId: localsOf(res).requestId, problemBase }, extra));
}
