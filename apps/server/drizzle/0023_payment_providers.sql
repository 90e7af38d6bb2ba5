CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"order_uuid" uuid NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "method" text DEFAULT 'test' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "recurring_days" integer;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_uuid_payment_orders_uuid_fk" FOREIGN KEY ("order_uuid") REFERENCES "public"."payment_orders"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_orders_pending_idx" ON "payment_orders" USING btree ("created_at") WHERE "payment_orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_orders_provider_subscription_idx" ON "payment_orders" USING btree ("provider_subscription_id");