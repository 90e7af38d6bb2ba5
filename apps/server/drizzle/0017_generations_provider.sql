ALTER TABLE "generations" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "provider_cost_usd" real;