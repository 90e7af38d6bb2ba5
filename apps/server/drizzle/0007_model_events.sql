-- Every change of a model's status or progress is published to the API processes, which forward
-- it to the browsers showing the training progress dialog (/api/models/<uuid>/events/), as
-- generations do (0003_generation_events).
CREATE OR REPLACE FUNCTION mirra_notify_model_event() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status OR NEW.progress IS DISTINCT FROM OLD.progress THEN
    PERFORM pg_notify(
      'mirra_model_events',
      json_build_object('uuid', NEW.uuid, 'user_id', NEW.user_id, 'status', NEW.status, 'progress', NEW.progress)::text
    );
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER models_notify_event AFTER INSERT OR UPDATE ON models
  FOR EACH ROW EXECUTE FUNCTION mirra_notify_model_event();
