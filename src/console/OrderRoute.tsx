import { Link, useParams } from "react-router";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { OrderScreen } from "./OrderScreen.tsx";

const ORDER_ID = /^[1-9]\d{0,8}$/;

/** /dispatch/orders/:id, loaded on demand (the console's first screen is the board): a new id is a new page machine (its logic loads with it: src/console/screens.ts). */
export default function OrderRoute() {
  const { id = "" } = useParams();
  if (!ORDER_ID.test(id)) {
    return (
      <div className="console-shell">
        <ConsoleHeader />
        <main className="console-main">
          <h1>No such order</h1>
          <p role="alert">“{id}” is not an order number.</p>
          <Link to="/dispatch">Back to the day board</Link>
        </main>
      </div>
    );
  }
  return <OrderScreen key={id} orderId={Number(id)} />;
}
