CREATE TABLE "output_hashes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "output_hashes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"generation_id" bigint NOT NULL,
	"hash" bigint NOT NULL,
	"band0" integer NOT NULL,
	"band1" integer NOT NULL,
	"band2" integer NOT NULL,
	"band3" integer NOT NULL,
	"mode" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "output_hashes" ADD CONSTRAINT "output_hashes_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "output_hashes_band0_idx" ON "output_hashes" USING btree ("band0");--> statement-breakpoint
CREATE INDEX "output_hashes_band1_idx" ON "output_hashes" USING btree ("band1");--> statement-breakpoint
CREATE INDEX "output_hashes_band2_idx" ON "output_hashes" USING btree ("band2");--> statement-breakpoint
CREATE INDEX "output_hashes_band3_idx" ON "output_hashes" USING btree ("band3");--> statement-breakpoint
CREATE INDEX "output_hashes_generation_idx" ON "output_hashes" USING btree ("generation_id");