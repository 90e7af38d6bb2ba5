ALTER TABLE "generations" ADD COLUMN "likeness" real;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "likeness_retries" integer DEFAULT 0 NOT NULL;