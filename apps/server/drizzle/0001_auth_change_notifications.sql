-- Tell every API process when a user or a sign-in session changes, so per-process caches of
-- "which user is this access token" drop the entry at once (see modules/auth/session-cache.ts).
CREATE OR REPLACE FUNCTION mirra_notify_user_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('mirra_auth_changes', 'u:' || OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION mirra_notify_session_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('mirra_auth_changes', 'f:' || OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION mirra_notify_user_change();
--> statement-breakpoint
CREATE TRIGGER token_families_notify_change AFTER UPDATE OR DELETE ON token_families
  FOR EACH ROW EXECUTE FUNCTION mirra_notify_session_change();
