import { type CursorSealer, LOG_CURSOR_MAX_LENGTH } from '../pagination/pagination.js';
import { DomainError } from '../shared/domain-error.js';

/** A position in the (ts, row_id) order of a profile's log rows. */
export interface LogPosition {
  /** Unix milliseconds of the row. */
  ts: number;
  /** The row's id (a 63-bit integer as a decimal string). */
  rowId: string;
}

const ROW_ID = /^\d{1,19}$/;

/**
 * Keyset cursors of log queries, sealed with the server key like every list cursor (400 invalid_cursor when
 * modified). A cursor is bound to the profile, the mode and a fingerprint of the filters it was issued for, so
 * it cannot continue a different query; it holds only the last row's (ts, row_id), which keeps it far below
 * the 512 characters a log cursor may have.
 */
export class LogCursors {
  constructor(
    private readonly sealer: CursorSealer,
    /** Short digest of a query's filters (the server's sha256). */
    private readonly digest: (data: string) => string,
  ) {}

  /** The opaque cursor after `position` for this query. */
  seal(binding: LogCursorBinding, position: LogPosition): string {
    return this.sealer.seal(this.listOf(binding), { t: position.ts, r: position.rowId });
  }

  /** The position in `cursor`; 400 invalid_cursor when modified, longer than 512, or issued for another query. */
  open(binding: LogCursorBinding, cursor: string): LogPosition {
    const position = this.sealer.open(this.listOf(binding), cursor, LOG_CURSOR_MAX_LENGTH);
    const ts = position.t;
    const rowId = position.r;
    if (
      typeof ts !== 'number' ||
      !Number.isSafeInteger(ts) ||
      typeof rowId !== 'string' ||
      !ROW_ID.test(rowId)
    ) {
      throw new DomainError('invalid_cursor', 'The cursor is not one this query issued.');
    }
    return { ts, rowId };
  }

  private listOf(binding: LogCursorBinding): string {
    return `logs:${binding.profileId}:${binding.mode}:${this.digest(binding.fingerprint).slice(0, 24)}`;
  }
}

/** What a log cursor is bound to. */
export interface LogCursorBinding {
  profileId: string;
  mode: 'tail' | 'search';
  /** Canonical text of the query's filters and explicit range. */
  fingerprint: string;
}

/** Compares two positions in (ts, row_id) order; row ids compare numerically. */
export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.ts !== b.ts) return a.ts - b.ts;
  if (a.rowId.length !== b.rowId.length) return a.rowId.length - b.rowId.length;
  return a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0;
}
