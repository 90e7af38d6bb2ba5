ALTER TABLE "telegram_auth_keys" ADD COLUMN "referral_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referer_not_self" CHECK ("users"."referer_id" <> "users"."id");--> statement-breakpoint
-- A referer is set when the account is created and never afterwards: it cannot be added, swapped,
-- or made to point back down the tree (so no cycle can form). Only the referer's account being
-- deleted clears it (ON DELETE SET NULL).
CREATE OR REPLACE FUNCTION mirra_keep_referer() RETURNS trigger AS $$
BEGIN
  IF NEW.referer_id IS DISTINCT FROM OLD.referer_id AND NEW.referer_id IS NOT NULL THEN
    RAISE EXCEPTION 'the referer of user % cannot change', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_keep_referer BEFORE UPDATE OF referer_id ON users
  FOR EACH ROW EXECUTE FUNCTION mirra_keep_referer();
