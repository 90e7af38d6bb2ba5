ALTER TABLE "generations" ADD COLUMN "queue_position" integer;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "provider_loras" jsonb;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "training_provider" text;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "training_job_id" text;--> statement-breakpoint
-- The live event of a generation also says its place in a provider's queue.
CREATE OR REPLACE FUNCTION mirra_notify_generation_event() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status OR NEW.progress IS DISTINCT FROM OLD.progress
     OR NEW.queue_position IS DISTINCT FROM OLD.queue_position THEN
    PERFORM pg_notify(
      'mirra_generation_events',
      json_build_object('uuid', NEW.uuid, 'user_id', NEW.user_id, 'status', NEW.status, 'progress', NEW.progress,
                        'queue_position', NEW.queue_position)::text
    );
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
