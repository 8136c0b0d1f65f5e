ALTER TABLE "payments" ADD COLUMN "attempt_reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "recovery_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_attempt_reference_idx" ON "payments" USING btree ("attempt_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_pending_per_order_idx" ON "payments" USING btree ("order_id") WHERE status = 'pending';