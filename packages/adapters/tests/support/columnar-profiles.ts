/** A profile id no earlier run used: a ClickHouse server keeps what earlier runs wrote. */
export function freshProfileId(): string {
  return `p${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

const HOUR = 3_600_000;

/** A start two hours aligned, some hours before now: inside every table's retention, buckets of 2 h aligned. */
export function recentEvenHour(): number {
  return Math.floor(Date.now() / (2 * HOUR)) * 2 * HOUR - 4 * HOUR;
}
