import { useSelector } from "@xstate/react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { RejectedRow } from "../../domain/order-import/order-csv.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { ConsoleTable, type Column } from "./ConsoleTable.tsx";
import { PharmacySelect } from "./PharmacySelect.tsx";
import { ConsoleScreen, type ScreenActor } from "./ConsoleScreen.tsx";
import { ConsoleSession } from "./session-context.ts";
import "./pages.css";

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const where = (row: RejectedRow) => (row.endLine > row.line ? `Lines ${row.line}–${row.endLine}` : `Line ${row.line}`);

/** /dispatch/import: a pharmacy's CSV checked by the CLI's rules before anything is written, then imported (issue 27). */
export function ImportScreen() {
  const staff = ConsoleSession.useSelector((snapshot) => snapshot.context.staff);
  const csrfToken = ConsoleSession.useSelector((snapshot) => snapshot.context.csrfToken);
  return (
    <ConsoleScreen screen="import" input={{ role: staff?.role ?? "pharmacist", pharmacyId: staff?.pharmacy_id ?? null, csrfToken }}>
      {(flow) => <ImportView flow={flow} />}
    </ConsoleScreen>
  );
}

function ImportView({ flow }: { flow: ScreenActor<"import"> }) {
  const state = useSelector(flow, (snapshot) => snapshot.value);
  const { pharmacies, pharmacyId, check, error, report, role } = useSelector(flow, (snapshot) => snapshot.context);
  const fileInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // The report replaces the form: focus its heading so a screen reader hears it.
  useEffect(() => {
    if (state === "report" || state === "failed") heading.current?.focus();
  }, [state]);

  const chooseFile = async (file: File | undefined) => {
    if (!file) return;
    flow.send({ type: "CHOOSE_FILE", fileName: file.name, text: await file.text() });
  };
  const importing = state === "importing";
  const canImport = state === "checked" && pharmacyId !== null && (check?.ready ?? 0) > 0;
  const pharmacyName = pharmacies.find((pharmacy) => pharmacy.id === pharmacyId)?.name;

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-page">
        <h1>Import orders</h1>
        <p className="console-lead">
          A pharmacy's orders from a CSV file, one order a row (the columns are those of <code>npm run ops -- orders import</code>). The file is checked
          first: nothing is written until you choose to import.
        </p>
        {state === "loadingPharmacies" && <p role="status">Loading the pharmacies…</p>}
        {state === "pharmaciesFailed" && (
          <div className="console-alert console-alert--row" role="alert">
            <span>{error}</span>
            <button type="button" className="console-button" onClick={() => flow.send({ type: "RETRY" })}>
              Try again
            </button>
          </div>
        )}

        {(state === "file" || state === "checked" || state === "importing") && (
          <form
            className="console-import"
            onSubmit={(event) => {
              event.preventDefault();
              if (canImport) flow.send({ type: "IMPORT" });
            }}
          >
            <div className="console-import__fields">
              <PharmacySelect
                pharmacies={pharmacies}
                pharmacyId={pharmacyId}
                disabled={role === "pharmacist" || importing}
                placeholder={pharmacyId === null ? "Choose the pharmacy" : null}
                onSelect={(id) => flow.send({ type: "SELECT_PHARMACY", pharmacyId: id })}
              />
              <label className="console-field">
                <span>CSV file</span>
                <input ref={fileInput} type="file" accept=".csv,text/csv" disabled={importing} onChange={(event) => void chooseFile(event.target.files?.[0])} />
              </label>
            </div>
            {role === "pharmacist" && <p className="console-muted">You import your own pharmacy's orders.</p>}
            {error && state === "file" && (
              <p className="console-alert" role="alert">
                {error}
              </p>
            )}
            {check && (
              <section className="console-section" aria-labelledby="import-check">
                <h2 id="import-check">Checked: {check.fileName}</h2>
                <p role="status">
                  {plural(check.rows, "row")}: {plural(check.ready, "order")} ready to import
                  {check.rejected.length > 0 ? `, ${plural(check.rejected.length, "row")} would be rejected.` : ", none rejected."}
                </p>
                {check.rejected.length > 0 && <RejectedRows title="Rows that would be rejected" rows={check.rejected} />}
                {pharmacyId === null && <p className="console-muted">Choose the pharmacy the orders are from.</p>}
                {check.ready === 0 && <p className="console-muted">No row can be imported: fix the file and choose it again.</p>}
                {check.ready > 0 && (
                  <button type="submit" className="console-button" aria-disabled={!canImport || undefined}>
                    {importing ? `Importing ${plural(check.ready, "order")}…` : `Import ${plural(check.ready, "order")}`}
                  </button>
                )}
                {importing && (
                  <p role="status" className="console-muted">
                    Importing into {pharmacyName}…
                  </p>
                )}
              </section>
            )}
          </form>
        )}

        {(state === "report" || state === "failed") && (
          <section className="console-section" aria-labelledby="import-report">
            <h2 id="import-report" ref={heading} tabIndex={-1}>
              {state === "report" ? "Import finished" : "Import stopped"}
            </h2>
            {error && (
              <div className="console-alert console-alert--row" role="alert">
                <span>{error}</span>
                <button type="button" className="console-button" onClick={() => flow.send({ type: "RETRY" })}>
                  Try again
                </button>
              </div>
            )}
            {report && (
              <>
                <p>
                  {plural(report.rows, "row")}: {report.created} created, {report.unchanged} unchanged (already imported), {report.rejected.length} rejected.
                </p>
                {report.rejected.length > 0 && <RejectedRows title="Rejected rows (nothing of them was imported; fix them and import the file again)" rows={report.rejected} />}
                {report.imported.length > 0 && (
                  <details className="console-details">
                    <summary>Imported orders ({report.imported.length})</summary>
                    <ul className="console-plain-list">
                      {report.imported.map((row) => (
                        <li key={row.orderId}>
                          Line {row.line}: <Link to={`/dispatch/orders/${row.orderId}`}>{row.externalId}</Link> ({row.status === "created" ? "created" : "already imported"})
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
              </>
            )}
            <div className="console-actions__row">
              <Link className="console-button" to="/dispatch">
                Open the day board
              </Link>
              <button type="button" className="console-button console-button--quiet" onClick={() => flow.send({ type: "IMPORT_ANOTHER" })}>
                Import another file
              </button>
            </div>
          </section>
        )}
      </main>
    </div>
  );
}

const REJECTED_COLUMNS: Column<RejectedRow>[] = [
  { header: "Line", cell: where },
  { header: "Order", cell: (row) => row.externalId ?? "—" },
  { header: "Reasons", cell: (row) => row.reasons.join("; ") },
];

function RejectedRows({ title, rows }: { title: string; rows: RejectedRow[] }) {
  return <ConsoleTable columns={REJECTED_COLUMNS} rows={rows} rowKey={(row) => `${row.line}-${row.externalId ?? ""}`} caption={title} />;
}
