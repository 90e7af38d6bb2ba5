-- Every change of a generation's status or progress is published to the API processes, which
-- forward it to the browsers watching it over server-sent events (/api/generations/<uuid>/events/).
CREATE OR REPLACE FUNCTION mirra_notify_generation_event() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status OR NEW.progress IS DISTINCT FROM OLD.progress THEN
    PERFORM pg_notify(
      'mirra_generation_events',
      json_build_object('uuid', NEW.uuid, 'user_id', NEW.user_id, 'status', NEW.status, 'progress', NEW.progress)::text
    );
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER generations_notify_event AFTER INSERT OR UPDATE ON generations
  FOR EACH ROW EXECUTE FUNCTION mirra_notify_generation_event();
