import { DomainError, type FieldError, type ProblemCode, ProblemCodes } from '@svc/domain';
import type { z } from 'zod';

/** A field error that may carry a narrower problem code than validation_failed (password_too_short, …). */
export interface CodedFieldError extends FieldError {
  problem?: ProblemCode;
}

function problemOf(issue: z.core.$ZodIssue): ProblemCode | undefined {
  if (issue.code !== 'custom') return undefined;
  const problem: unknown = issue.params?.problem;
  return ProblemCodes.find((code) => code === problem);
}

/** Field errors of a failed zod parse, named by dotted path (`settings.block_mode`), or by `fallback` at the root. */
export function fieldErrorsOf(error: z.ZodError, fallback: string): CodedFieldError[] {
  return error.issues.map((issue) => {
    const problem = problemOf(issue);
    return {
      field: issue.path.length > 0 ? issue.path.map(String).join('.') : fallback,
      message: issue.message,
      ...(problem === undefined ? {} : { problem }),
    };
  });
}

/** Parses one part of a request; collects failures into `errors` instead of throwing. */
export function parsePart<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  fallbackField: string,
  errors: CodedFieldError[],
): z.output<T> | undefined {
  if (schema === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...fieldErrorsOf(result.error, fallbackField));
  return undefined;
}

/**
 * 422 listing every field error of a request: validation_failed, or the narrower code every error carries
 * when there is only one kind of failure (a password length problem alone is password_too_short, spec 7).
 */
export function assertNoFieldErrors(errors: CodedFieldError[]): void {
  if (errors.length === 0) return;
  const fieldErrors = errors.map(({ field, message }) => ({ field, message }));
  const first = errors[0]?.problem;
  if (first !== undefined && errors.every((error) => error.problem === first)) {
    throw new DomainError(first, 'The request has an invalid field.', { fieldErrors });
  }
  throw new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors });
}
