CREATE TABLE "wallet_accounts" (
	"user_id" bigint NOT NULL,
	"currency" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_accounts_user_id_currency_pk" PRIMARY KEY("user_id","currency")
);
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"currency" integer NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"frozen_until" timestamp with time zone,
	"released_at" timestamp with time zone,
	"ref" text,
	"counterparty_user_id" bigint,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_entries_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "wallet_entries_amount_not_zero" CHECK ("wallet_entries"."amount" <> 0),
	CONSTRAINT "wallet_entries_status_matches_sign" CHECK (("wallet_entries"."status" <> 'in' OR "wallet_entries"."amount" > 0) AND ("wallet_entries"."status" <> 'out' OR "wallet_entries"."amount" < 0))
);
--> statement-breakpoint
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_counterparty_user_id_users_id_fk" FOREIGN KEY ("counterparty_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_entries_user_idx" ON "wallet_entries" USING btree ("user_id","currency","id");--> statement-breakpoint
CREATE INDEX "wallet_entries_frozen_idx" ON "wallet_entries" USING btree ("frozen_until") WHERE "wallet_entries"."frozen_until" IS NOT NULL AND "wallet_entries"."released_at" IS NULL;