-- A transaction that writes many events at once (an orders batch, issue 25) gives them their positions
-- itself, in the INSERT, under the same advisory lock, as its last statement before COMMIT
-- (server/services/events/record.ts). Such rows queue no deferred trigger: at commit, a 1000-row batch
-- no longer updates each of its events one by one while holding the lock every other writer of events
-- waits for. A row inserted without a position takes one at commit, as before.
DROP TRIGGER "dispatch_events_position" ON "dispatch_events";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER dispatch_events_position AFTER INSERT ON dispatch_events DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.position IS NULL) EXECUTE FUNCTION dispatch_events_take_position();
