import type { ReactNode } from 'react';
import './components.css';

/** One column of a {@link ResponsiveTable}. */
interface Column<Row> {
  /** The column's header, and each cell's label on a phone. */
  header: string;
  cell: (row: Row) => ReactNode;
}

/** Props of {@link ResponsiveTable}. */
export interface ResponsiveTableProps<Row> {
  /** The table's caption, which names it. */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
}

/**
 * A table on a wide screen, a list of cards on a phone (under 40rem each row stacks its cells, each labelled
 * with its column's header through `data-label`, and the header row is not shown, so nothing scrolls sideways).
 * The first column is the row's header. The phone layout is CSS only.
 */
export function ResponsiveTable<Row>({ caption, columns, rows, rowKey }: ResponsiveTableProps<Row>) {
  const [first, ...rest] = columns;
  return (
    <table className="responsive-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
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
              <td key={column.header} data-label={column.header}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
