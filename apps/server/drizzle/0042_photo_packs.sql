CREATE TABLE "photo_packs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "photo_packs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" uuid NOT NULL,
	"titles" jsonb NOT NULL,
	"descriptions" jsonb NOT NULL,
	"emoji" text NOT NULL,
	"prompts" jsonb NOT NULL,
	"aspect" text NOT NULL,
	"price" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"cover_key" text,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photo_packs_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE INDEX "photo_packs_catalogue_idx" ON "photo_packs" USING btree ("position","id") WHERE "photo_packs"."retired_at" IS NULL;