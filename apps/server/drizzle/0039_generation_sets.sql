ALTER TABLE "generations" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "set_uuid" uuid;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "set_index" integer;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "set_size" integer;--> statement-breakpoint
CREATE INDEX "generations_set_idx" ON "generations" USING btree ("set_uuid") WHERE "generations"."set_uuid" IS NOT NULL;
--> statement-breakpoint
-- mirra_accept_generation again, for runs of several pictures and the tools' settings: it stores
-- the settings and the picture's set, checks the free tier and the whole run's price with the
-- run's first picture (the later ones are let in with it, each charged on its own), and otherwise
-- does what it did. The argument list changes, so the old function is dropped.
DROP FUNCTION mirra_accept_generation(
  bigint, uuid, timestamptz, timestamptz, integer, integer, text, text, real, integer, boolean, text,
  integer, text, uuid[], uuid, uuid, uuid, integer, text, text, text, text, text, text, jsonb, integer,
  integer, integer
);
--> statement-breakpoint
CREATE FUNCTION mirra_accept_generation(
  p_user_id bigint,
  p_uuid uuid,
  p_now timestamptz,
  p_local_midnight timestamptz,
  p_daily_free integer,
  p_delay_seconds integer,
  p_mode text,
  p_prompt text,
  p_guidance real,
  p_seed integer,
  p_seed_fixed boolean,
  p_style text,
  p_duration_seconds integer,
  p_aspect text,
  p_input_uploads uuid[],
  p_model_uuid uuid,
  p_post_uuid uuid,
  p_repeat_of uuid,
  p_cost integer,
  p_engine text,
  p_client_key text,
  p_client_request_hash text,
  p_charge_kind text,
  p_charge_key text,
  p_job_identifier text,
  p_job_payload jsonb,
  p_job_max_attempts integer,
  p_premium_priority integer,
  p_standard_priority integer,
  p_settings jsonb,
  p_set_uuid uuid,
  p_set_index integer,
  p_set_size integer,
  -- What the whole run costs, checked against the balance by its first picture, so a run the
  -- balance cannot pay for is refused whole and the refusal names its whole price.
  p_run_cost integer,
  -- False for the second and later pictures of a run: the free tier let the run in as one request.
  p_check_free_tier boolean
) RETURNS SETOF generations
LANGUAGE plpgsql
AS $$
DECLARE
  v_balance integer;
  v_made generations;
  v_day_start timestamptz;
  v_wait integer;
  v_row generations;
BEGIN
  -- The balance lock serialises every paid action of the user, and with it the free-tier check
  -- and the key lookup: parallel requests cannot all slip in.
  INSERT INTO credit_accounts (user_id, balance) VALUES (p_user_id, 0) ON CONFLICT DO NOTHING;
  SELECT balance INTO v_balance FROM credit_accounts WHERE user_id = p_user_id FOR UPDATE;

  -- The same key again answers with the generation it made, charged once; with other inputs
  -- (a stored hash that differs) it is refused.
  IF p_client_key IS NOT NULL THEN
    SELECT * INTO v_made FROM generations WHERE user_id = p_user_id AND client_key = p_client_key;
    IF FOUND THEN
      IF v_made.client_request_hash IS NOT NULL
         AND v_made.client_request_hash IS DISTINCT FROM p_client_request_hash THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'generations.idempotency_key_reused';
      END IF;
      RETURN NEXT v_made;
      RETURN;
    END IF;
  END IF;

  IF p_check_free_tier THEN
    -- Read after the lock, so it counts every generation the user's earlier requests made.
    SELECT f.wait_seconds, f.day_start INTO v_wait, v_day_start
      FROM mirra_free_tier(p_user_id, p_now, p_local_midnight, p_daily_free, p_delay_seconds) f;
    IF v_wait > 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'generations.rate_limited', DETAIL = v_wait::text;
    END IF;
    IF p_run_cost > v_balance THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'credits.insufficient', DETAIL = v_balance::text;
    END IF;
    -- The day this generation counts in is kept, so a later cookie cannot start the next one early.
    -- Written only on a change: an update of users drops every process's cached session of the user.
    UPDATE users SET free_day_started_at = v_day_start
      WHERE id = p_user_id AND free_day_started_at IS DISTINCT FROM v_day_start;
  ELSIF p_cost > v_balance THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'credits.insufficient', DETAIL = v_balance::text;
  END IF;

  INSERT INTO generations (
    uuid, created_at, user_id, mode, status, prompt, guidance, seed, seed_fixed, style,
    duration_seconds, aspect, input_uploads, model_uuid, post_uuid, repeat_of, cost, engine,
    client_key, client_request_hash, settings, set_uuid, set_index, set_size
  ) VALUES (
    p_uuid, p_now, p_user_id, p_mode, 0, p_prompt, p_guidance, p_seed, p_seed_fixed, p_style,
    p_duration_seconds, p_aspect, p_input_uploads, p_model_uuid, p_post_uuid, p_repeat_of, p_cost,
    p_engine, p_client_key, p_client_request_hash, p_settings, p_set_uuid, p_set_index, p_set_size
  ) RETURNING * INTO v_row;

  IF p_cost > 0 THEN
    -- The ledger entry and the cached balance together; its key is unique, so never twice.
    INSERT INTO credit_entries (user_id, delta, kind, ref, idempotency_key, balance_after)
      VALUES (p_user_id, -p_cost, p_charge_kind, p_uuid::text, p_charge_key, v_balance - p_cost);
    UPDATE credit_accounts SET balance = v_balance - p_cost, updated_at = now() WHERE user_id = p_user_id;
  END IF;

  -- Premium subscribers' generations run ahead of everyone else's.
  PERFORM graphile_worker.add_job(
    identifier => p_job_identifier,
    payload => (p_job_payload || jsonb_build_object('generationId', v_row.id))::json,
    max_attempts => p_job_max_attempts,
    job_key => 'generation:' || v_row.id,
    priority => CASE WHEN EXISTS (
      SELECT 1 FROM entitlements WHERE user_id = p_user_id AND kind = 'premium' AND until >= p_now
    ) THEN p_premium_priority ELSE p_standard_priority END
  );

  RETURN NEXT v_row;
  RETURN;
END;
$$;
