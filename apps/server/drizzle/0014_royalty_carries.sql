CREATE TABLE "royalty_carries" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"hundredths" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_carries_below_one_credit" CHECK ("royalty_carries"."hundredths" >= 0 AND "royalty_carries"."hundredths" < 100)
);
--> statement-breakpoint
ALTER TABLE "royalty_carries" ADD CONSTRAINT "royalty_carries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;