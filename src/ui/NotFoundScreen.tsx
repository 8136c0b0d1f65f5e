import { Link } from "react-router";

/** Spec §2: a missing order or missing data shows a not-found style view. */
export function NotFoundScreen({ what = "page" }: { what?: string }) {
  return (
    <main className="screen">
      <h1 className="screen__title">Not found</h1>
      <p>This {what} could not be found. It may have been finished or removed.</p>
      <Link className="button" to="/dashboard">
        Home
      </Link>
    </main>
  );
}
