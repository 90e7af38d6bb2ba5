CREATE TABLE "blocked_pictures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "blocked_pictures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hash" bigint NOT NULL,
	"band0" integer NOT NULL,
	"band1" integer NOT NULL,
	"band2" integer NOT NULL,
	"band3" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "takedown_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "takedown_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"post_id" bigint,
	"post_uuid" uuid NOT NULL,
	"category" text NOT NULL,
	"contact_email" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"requester_id" bigint,
	"received_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "takedown_requests" ADD CONSTRAINT "takedown_requests_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "takedown_requests" ADD CONSTRAINT "takedown_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocked_pictures_band0_idx" ON "blocked_pictures" USING btree ("band0");--> statement-breakpoint
CREATE INDEX "blocked_pictures_band1_idx" ON "blocked_pictures" USING btree ("band1");--> statement-breakpoint
CREATE INDEX "blocked_pictures_band2_idx" ON "blocked_pictures" USING btree ("band2");--> statement-breakpoint
CREATE INDEX "blocked_pictures_band3_idx" ON "blocked_pictures" USING btree ("band3");--> statement-breakpoint
CREATE INDEX "takedown_requests_open_idx" ON "takedown_requests" USING btree ("post_id") WHERE "takedown_requests"."resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "takedown_requests_post_uuid_idx" ON "takedown_requests" USING btree ("post_uuid");