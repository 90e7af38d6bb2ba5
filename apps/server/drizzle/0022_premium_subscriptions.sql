CREATE TABLE "premium_subscriptions" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"plan" text NOT NULL,
	"status" text NOT NULL,
	"provider" text,
	"saved_method_id" text,
	"amount" integer NOT NULL,
	"currency" integer NOT NULL,
	"period_days" integer NOT NULL,
	"access_until" timestamp with time zone,
	"next_charge_at" timestamp with time zone,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "premium_subscriptions_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "premium_trial_claims" (
	"subject" text PRIMARY KEY NOT NULL,
	"user_id" bigint,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "purpose" text DEFAULT 'product' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "purpose_ref" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "save_method" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "saved_method_id" text;--> statement-breakpoint
ALTER TABLE "premium_subscriptions" ADD CONSTRAINT "premium_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "premium_trial_claims" ADD CONSTRAINT "premium_trial_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "premium_subscriptions_due_idx" ON "premium_subscriptions" USING btree ("next_attempt_at") WHERE "premium_subscriptions"."auto_renew" AND "premium_subscriptions"."next_attempt_at" IS NOT NULL;