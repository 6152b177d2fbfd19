import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { t } from '../../i18n/t.js';
import { qtypeName } from './log-filters.js';
import { reasonWithPolicy, statusLabel } from './log-labels.js';
import type { LogRow } from './log-row.js';
import { shortTime } from './log-time.js';

/** Height of one row in pixels: fixed, so that scrolling never measures the DOM. */
const ROW_HEIGHT = 36;
/** Rows drawn beyond the visible ones on each side, so that fast scrolling shows no gaps. */
const OVERSCAN = 8;

/**
 * One drawn row. Memoised: while scrolling, the rows already drawn keep their props, so only the few entering
 * the view render.
 */
const LogTableRow = memo(function LogTableRow({
  row,
  index,
  start,
  selected,
  onSelect,
}: {
  row: LogRow;
  index: number;
  start: number;
  selected: boolean;
  onSelect: (index: number) => void;
}) {
  return (
    <tr
      aria-rowindex={index + 2}
      className={`log-row status-${row.status}${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
    >
      <td>
        <time dateTime={row.ts}>{shortTime(row.ts)}</time>
      </td>
      <td className="log-status">{statusLabel(row.status)}</td>
      <td className="log-domain">
        <button type="button" className="link-button" aria-pressed={selected} onClick={() => onSelect(index)}>
          {row.qname === '' ? t('logs.unnamedQuery') : row.qname}
        </button>
      </td>
      <td>{qtypeName(row.qtype)}</td>
      <td>{row.device_name === '' ? row.device_id : row.device_name}</td>
      <td>{row.client_ip}</td>
      <td>{reasonWithPolicy(row)}</td>
    </tr>
  );
});

/** Props of {@link LogTable}. */
export interface LogTableProps {
  rows: readonly LogRow[];
  /** Index of the row whose details are open. */
  selected: number | undefined;
  onSelect: (index: number) => void;
  /** Told whether the reader is at the newest rows (the top) or scrolled away from them. */
  onAtTop?: (atTop: boolean) => void;
  /** Told when the last drawn rows near the end, to fetch more. */
  onNearEnd?: () => void;
  label: string;
  /** Changed to bring the newest rows back into view (after showing held rows). */
  toTop?: number;
}

/**
 * The log rows as a table whose body is virtualised: only the rows in view (and a few around them) are in the
 * DOM, however many the page holds; `aria-rowcount` and `aria-rowindex` tell assistive technology where each
 * drawn row sits among all of them. Each row's domain is a button opening its details.
 */
export function LogTable({ rows, selected, onSelect, onAtTop, onNearEnd, label, toTop = 0 }: LogTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (onNearEnd !== undefined && rows.length > 0 && last >= rows.length - OVERSCAN * 4) onNearEnd();
  }, [last, rows.length, onNearEnd]);
  useEffect(() => {
    if (toTop > 0) scroller.current?.scrollTo({ top: 0 });
  }, [toTop]);
  return (
    <div
      className="log-scroller"
      ref={scroller}
      onScroll={(event) => onAtTop?.(event.currentTarget.scrollTop < ROW_HEIGHT / 2)}
    >
      <table className="log-table" aria-label={label} aria-rowcount={rows.length + 1}>
        <thead>
          <tr className="log-row" aria-rowindex={1}>
            <th scope="col">{t('logs.column.time')}</th>
            <th scope="col">{t('logs.column.status')}</th>
            <th scope="col">{t('logs.column.domain')}</th>
            <th scope="col">{t('logs.column.type')}</th>
            <th scope="col">{t('logs.column.device')}</th>
            <th scope="col">{t('logs.column.client')}</th>
            <th scope="col">{t('logs.column.reason')}</th>
          </tr>
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <LogTableRow
                key={item.key}
                row={row}
                index={item.index}
                start={item.start}
                selected={item.index === selected}
                onSelect={onSelect}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
