import type { ReactNode } from "react";

/** A record's fields as terms and values (an order, its proof, a return manifest). */
export function FieldList({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="console-fields">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
