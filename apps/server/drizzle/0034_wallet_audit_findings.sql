CREATE TABLE "wallet_audit_findings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_audit_findings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"check" text NOT NULL,
	"user_id" bigint,
	"ref" text NOT NULL,
	"expected" text NOT NULL,
	"actual" text NOT NULL,
	"repaired" boolean DEFAULT false NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_audit_findings_found_idx" ON "wallet_audit_findings" USING btree ("found_at");