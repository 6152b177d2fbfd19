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

/** One value met while walking a parsed request part, with the way back to its root. */
interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
}

function dottedPath(visit: Visit, fallback: string): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at !== undefined; at = at.parent) {
    if (at.key !== undefined) keys.unshift(at.key);
  }
  return keys.length > 0 ? keys.join('.') : fallback;
}

/**
 * Fields of a parsed request part holding U+0000. PostgreSQL text and jsonb cannot store it, so such a string
 * would fail at the database as a 500; it is refused up front as a field error instead (the fuzzer found it in
 * names, notes and feedback). Walked with an explicit stack: a schema's free-form part may nest deeply.
 */
function nulCharacterErrors(value: unknown, fallback: string): CodedFieldError[] {
  const errors: CodedFieldError[] = [];
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000'))
        errors.push({
          field: dottedPath(visit, fallback),
          message: 'Must not contain the NUL character (U+0000).',
        });
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000'))
          errors.push({ field: dottedPath(visit, fallback), message: 'Keys must not contain U+0000.' });
        pending.push({ value: item, key, parent: visit });
      }
    }
  }
  return errors;
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
  if (result.success) {
    const nulErrors = nulCharacterErrors(result.data, fallbackField);
    if (nulErrors.length === 0) return result.data;
    errors.push(...nulErrors);
    return undefined;
  }
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
