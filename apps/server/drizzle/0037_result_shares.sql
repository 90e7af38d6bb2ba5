CREATE TABLE "result_shares" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "result_shares_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"generation_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "result_shares_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "result_shares" ADD CONSTRAINT "result_shares_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "result_shares_live_idx" ON "result_shares" USING btree ("generation_id") WHERE "result_shares"."revoked_at" IS NULL;