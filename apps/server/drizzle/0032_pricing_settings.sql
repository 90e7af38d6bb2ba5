CREATE TABLE "pricing_settings" (
	"version" integer PRIMARY KEY NOT NULL,
	"overrides" jsonb NOT NULL,
	"staff_user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every process caches the catalogue and prices; a change (from the console or by hand in SQL)
-- tells them all to read it again (see modules/pricing/pricing-settings.ts).
CREATE OR REPLACE FUNCTION mirra_notify_pricing_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('mirra_pricing_changes', NEW.version::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pricing_settings_notify_change AFTER INSERT ON pricing_settings
  FOR EACH ROW EXECUTE FUNCTION mirra_notify_pricing_change();
