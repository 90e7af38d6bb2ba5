CREATE TABLE "partner_commissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "partner_commissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_uuid" uuid NOT NULL,
	"buyer_id" bigint NOT NULL,
	"beneficiary_id" bigint NOT NULL,
	"level" integer NOT NULL,
	"basis_points" integer NOT NULL,
	"base_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" integer NOT NULL,
	"status" text NOT NULL,
	"frozen_until" timestamp with time zone,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"reversed_amount" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "partner_commissions_amounts" CHECK ("partner_commissions"."amount" >= 0 AND "partner_commissions"."reversed_amount" BETWEEN 0 AND "partner_commissions"."amount")
);
--> statement-breakpoint
CREATE TABLE "partner_level_counts" (
	"user_id" bigint NOT NULL,
	"level" integer NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"paying" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_level_counts_user_id_level_pk" PRIMARY KEY("user_id","level")
);
--> statement-breakpoint
CREATE TABLE "partner_monthly" (
	"user_id" bigint NOT NULL,
	"month" date NOT NULL,
	"currency" integer NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"turnover" bigint DEFAULT 0 NOT NULL,
	"first_line_turnover" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_monthly_user_id_month_currency_pk" PRIMARY KEY("user_id","month","currency")
);
--> statement-breakpoint
CREATE TABLE "partner_profiles" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"show_contact" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_tops" (
	"period" text NOT NULL,
	"metric" text NOT NULL,
	"currency" integer NOT NULL,
	"rank" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"value" bigint NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "partner_tops_period_metric_currency_rank_pk" PRIMARY KEY("period","metric","currency","rank")
);
--> statement-breakpoint
CREATE TABLE "payout_requests" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" integer NOT NULL,
	"amount" integer NOT NULL,
	"method" text NOT NULL,
	"requisites" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"client_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "payout_requests_amount_positive" CHECK ("payout_requests"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payout_requisites" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"requisites" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_auth_keys" ADD COLUMN "referral_code" text;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_beneficiary_id_users_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_level_counts" ADD CONSTRAINT "partner_level_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_monthly" ADD CONSTRAINT "partner_monthly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_profiles" ADD CONSTRAINT "partner_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_tops" ADD CONSTRAINT "partner_tops_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requisites" ADD CONSTRAINT "payout_requisites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_commissions_order_level_unique" ON "partner_commissions" USING btree ("order_uuid","level");--> statement-breakpoint
CREATE INDEX "partner_commissions_beneficiary_idx" ON "partner_commissions" USING btree ("beneficiary_id","buyer_id");--> statement-breakpoint
CREATE INDEX "partner_commissions_due_idx" ON "partner_commissions" USING btree ("frozen_until") WHERE "partner_commissions"."status" = 'frozen';--> statement-breakpoint
CREATE INDEX "partner_monthly_income_idx" ON "partner_monthly" USING btree ("month","currency","income");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_client_key_unique" ON "payout_requests" USING btree ("user_id","client_key");--> statement-breakpoint
CREATE INDEX "payout_requests_status_idx" ON "payout_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "payout_requests_user_idx" ON "payout_requests" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referer_not_self" CHECK ("users"."referer_id" <> "users"."id");

-- A referer is set when the account is created and never afterwards: it cannot be added, swapped,
-- or made to point back down the tree (so no cycle can form). Only the referer's account being
-- deleted clears it (ON DELETE SET NULL).
CREATE OR REPLACE FUNCTION mirra_keep_referer() RETURNS trigger AS $$
BEGIN
  IF NEW.referer_id IS DISTINCT FROM OLD.referer_id AND NEW.referer_id IS NOT NULL THEN
    RAISE EXCEPTION 'the referer of user % cannot change', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_keep_referer BEFORE UPDATE OF referer_id ON users
  FOR EACH ROW EXECUTE FUNCTION mirra_keep_referer();
--> statement-breakpoint
-- People who joined before the counters existed: members per level of each partner's team, up to
-- ten levels (the most PARTNER_LEVELS allows).
INSERT INTO partner_level_counts (user_id, level, members)
WITH RECURSIVE up(member_id, ancestor_id, level) AS (
  SELECT id, referer_id, 1 FROM users WHERE referer_id IS NOT NULL
  UNION ALL
  SELECT up.member_id, u.referer_id, up.level + 1 FROM up JOIN users u ON u.id = up.ancestor_id
  WHERE u.referer_id IS NOT NULL AND up.level < 10
)
SELECT ancestor_id, level, count(*)::int FROM up GROUP BY ancestor_id, level;
