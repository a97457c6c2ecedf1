-- The per-webhook concurrency bound counts each dispatcher's own attempts in flight (so a crashed
-- process's leases no longer hold back a restarted one); nothing counts leases per webhook now.
DROP INDEX IF EXISTS webhook_deliveries_leased;
