/**
 * An enum as a newer server may answer it: one of the values this SDK knows, or any other string, since
 * values are only ever added within /v1 (spec section 9). Editors still offer the known values. Switch on it
 * with a default branch: `const status: OpenEnum<QueryStatus> = row.status`.
 */
export type OpenEnum<Known extends string> = Known | (string & Record<never, never>);

/** Whether `value` is one of `known`, narrowing an open enum back to the values this code handles. */
export function isKnownValue<Known extends string>(
  known: readonly Known[],
  value: OpenEnum<Known> | undefined,
): value is Known {
  return value !== undefined && (known as readonly string[]).includes(value);
}
