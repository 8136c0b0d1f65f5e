import type { Key, ReactNode } from "react";

/** One column of a console table: its header and what each row shows in it. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/**
 * The console's read-only tables (an order's history, custody and webhooks,
 * a return's orders, an import's rejected rows): a header row of column
 * names and a row per item, the caption naming the table when there is one.
 */
export function ConsoleTable<Row>({ columns, rows, rowKey, caption, captionClassName }: { columns: Column<Row>[]; rows: Row[]; rowKey: (row: Row, index: number) => Key; caption?: string; captionClassName?: string }) {
  return (
    <table className="console-table">
      {caption && <caption className={captionClassName}>{caption}</caption>}
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
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)}>
            {columns.map((column) => (
              <td key={column.header} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
