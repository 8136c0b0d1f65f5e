-- The commit trigger's UPDATE of one event by its id (migration 0013) is planned again at each call with
-- the table's size of the moment (issue 25). PL/pgSQL keeps a statement's generic plan for the life of
-- the connection: a pooled connection whose first events were positioned while dispatch_events was
-- small (a seq scan is then the cheaper plan) kept seq-scanning the whole table at every courier's
-- pickup or delivery as it grew (on a scratch database: 3 commits after 20,000 rows read 60,231).
ALTER FUNCTION dispatch_events_take_position() SET plan_cache_mode = force_custom_plan;
