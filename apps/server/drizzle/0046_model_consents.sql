CREATE TABLE "model_consents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "model_consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"model_id" bigint,
	"model_uuid" uuid NOT NULL,
	"model_name" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"link_expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"posts_removed" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_consents_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "model_consents_model_id_unique" UNIQUE("model_id")
);
--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "subject" text DEFAULT 'self' NOT NULL;--> statement-breakpoint
ALTER TABLE "model_consents" ADD CONSTRAINT "model_consents_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_consents" ADD CONSTRAINT "model_consents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_consents_owner_idx" ON "model_consents" USING btree ("owner_id");