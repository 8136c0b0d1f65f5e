import { Link } from "react-router";
import { visitsToMake } from "../../../domain/pharmacy-list.ts";
import { CourierDayContext, SessionContext } from "../../shell/app-actor.ts";

export function DashboardScreen() {
  const courier = SessionContext.useSelector((state) => state.context.courier);
  const day = CourierDayContext.useSelector((state) => state.context.day)!;
  const visits = visitsToMake(day.pharmacy_visits);

  return (
    <main className="screen">
      <h1 className="screen__title">Hello, {courier?.first_name}</h1>
      <p className="lead">
        {visits.length} {visits.length === 1 ? "pharmacy" : "pharmacies"} and {day.orders.length}{" "}
        {day.orders.length === 1 ? "order" : "orders"} today.
      </p>
      <Link className="button button--block" to="/pharmacies">
        Pharmacies
      </Link>
    </main>
  );
}
