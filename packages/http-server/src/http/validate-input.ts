import { DomainError, type FieldError, type ProblemCode, ProblemCodes, storableTextFault } from '@svc/domain';
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
function fieldErrorsOf(error: z.ZodError, fallback: string): CodedFieldError[] {
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
 * Fields of a request part holding text no store can take as it is (U+0000, a lone surrogate: see
 * {@link storableTextFault}), in values and in keys. This is the one place every string of every route's
 * params, query and body passes, whatever its schema says, so no field can forget the rule. Walked with an
 * explicit stack: a schema's free-form part may nest deeply.
 */
function textFaults(value: unknown, fallback: string): CodedFieldError[] {
  const errors: CodedFieldError[] = [];
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      const fault = storableTextFault(current);
      if (fault !== null) errors.push({ field: dottedPath(visit, fallback), message: fault });
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const fault = storableTextFault(key);
        if (fault !== null) errors.push({ field: dottedPath(visit, fallback), message: `Keys: ${fault}` });
        pending.push({ value: item, key, parent: visit });
      }
    }
  }
  return errors;
}

/**
 * Parses one part of a request; collects failures into `errors` instead of throwing. A part that parses is
 * checked for unstorable text as parsed (fields the schema drops do not matter); a part that fails is checked
 * as sent too, so that a field holding such text is named even when another field fails the schema first.
 */
export function parsePart<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  fallbackField: string,
  errors: CodedFieldError[],
): z.output<T> | undefined {
  if (schema === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) {
    const faults = textFaults(result.data, fallbackField);
    if (faults.length === 0) return result.data;
    errors.push(...faults);
    return undefined;
  }
  const schemaErrors = fieldErrorsOf(result.error, fallbackField);
  errors.push(...schemaErrors, ...textFaults(value, fallbackField));
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
