import type { ReactNode } from 'react';
import './components.css';

/** One column of a {@link ResponsiveTable}. */
interface Column<Row> {
  /** The column's header, and each cell's label on a phone. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** A count: right-aligned in tabular figures on a wide screen. */
  numeric?: boolean;
}

/** Props of {@link ResponsiveTable}. */
export interface ResponsiveTableProps<Row> {
  /** The table's caption, which names it. */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Keeps the caption for screen readers only, when a visible heading or summary already names the table. */
  captionHidden?: boolean;
  /** A class of the page's own styles for the table (a top list's widths). */
  className?: string;
}

/**
 * A table on a wide screen, a list of cards on a phone (under 40rem each row stacks its cells, each labelled
 * with its column's header through `data-label`, and the header row is not shown, so nothing scrolls sideways).
 * The first column is the row's header. The phone layout is CSS only.
 */
export function ResponsiveTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  captionHidden,
  className,
}: ResponsiveTableProps<Row>) {
  const [first, ...rest] = columns;
  const numeric = (column: Column<Row>) => (column.numeric === true ? 'numeric' : undefined);
  return (
    <table className={className === undefined ? 'responsive-table' : `responsive-table ${className}`}>
      <caption className={captionHidden === true ? 'visually-hidden' : undefined}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={numeric(column)}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {first !== undefined && (
              <th scope="row" data-label={first.header}>
                {first.cell(row)}
              </th>
            )}
            {rest.map((column) => (
              <td key={column.header} data-label={column.header} className={numeric(column)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
