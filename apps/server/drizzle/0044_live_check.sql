CREATE TABLE "model_live_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "model_live_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"model_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"passed" boolean NOT NULL,
	"problems" text[] DEFAULT '{}'::text[] NOT NULL,
	"measures" jsonb NOT NULL,
	"descriptor" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "model_live_checks_model_id_unique" UNIQUE("model_id")
);
--> statement-breakpoint
ALTER TABLE "model_live_checks" ADD CONSTRAINT "model_live_checks_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_live_checks" ADD CONSTRAINT "model_live_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;