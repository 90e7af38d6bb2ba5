ALTER TABLE "payment_orders" ADD COLUMN "receipt_email" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "premium_subscriptions" ADD COLUMN "provider_state_at" timestamp with time zone;