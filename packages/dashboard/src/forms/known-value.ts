/** True when `value` is one of the keys of `known` (an enum the dashboard has wording for). */
function isKnown<K extends string>(known: Readonly<Record<K, unknown>>, value: string): value is K {
  return Object.hasOwn(known, value);
}

/**
 * The submitted `value` as one of `known`'s keys, or undefined for a value the dashboard does not know (a newer
 * server's), which is then left out of the write rather than sent unchecked.
 */
export function knownValue<K extends string>(
  known: Readonly<Record<K, unknown>>,
  value: string,
): K | undefined {
  return isKnown(known, value) ? value : undefined;
}
