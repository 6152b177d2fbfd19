import { DomainError, type FieldError } from '@svc/domain';
import type { z } from 'zod';

/** Field errors of a failed zod parse, named by dotted path (`settings.block_mode`), or by `fallback` at the root. */
export function fieldErrorsOf(error: z.ZodError, fallback: string): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : fallback,
    message: issue.message,
  }));
}

/** Parses one part of a request; collects failures into `errors` instead of throwing. */
export function parsePart<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  fallbackField: string,
  errors: FieldError[],
): z.output<T> | undefined {
  if (schema === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...fieldErrorsOf(result.error, fallbackField));
  return undefined;
}

/** 422 validation_failed listing every field error of a request. */
export function assertNoFieldErrors(errors: FieldError[]): void {
  if (errors.length > 0)
    throw new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors: errors });
}
