-- The free tier's decision is one function, mirra_free_tier: GET /api/generations/price/ asks it
-- what wait to announce, and mirra_accept_generation asks it under the balance lock before it
-- charges, so the wait a person is shown and the one a create applies cannot differ. It reads
-- only; the accept records the day it returns.
CREATE FUNCTION mirra_free_tier(
  p_user_id bigint,
  p_now timestamptz,
  -- The latest local midnight by the user's timezone cookie.
  p_local_midnight timestamptz,
  p_daily_free integer,
  p_delay_seconds integer,
  OUT wait_seconds integer,
  OUT day_start timestamptz
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  v_previous_day timestamptz;
  v_started integer;
  v_last timestamptz;
BEGIN
  -- The day counted before is kept until 24 h after its start, so a timezone cookie cannot start
  -- a new day at will; after that the day starts at the latest local midnight.
  SELECT free_day_started_at INTO v_previous_day FROM users WHERE id = p_user_id;
  IF v_previous_day IS NOT NULL AND p_local_midnight < v_previous_day + interval '24 hours' THEN
    day_start := v_previous_day;
  ELSE
    day_start := p_local_midnight;
  END IF;
  -- A generation that failed (ERROR -100, FAILED -200) was refunded and made nothing: it neither
  -- uses up the day's allowance nor starts the pause. One still running counts, so parallel
  -- requests cannot all pass as the first of the day.
  SELECT count(*)::int, max(created_at) INTO v_started, v_last
    FROM generations WHERE user_id = p_user_id AND created_at >= day_start AND status >= 0;
  -- The first p_daily_free a day are unrestricted, then p_delay_seconds between generations;
  -- premium or the unlimited package lift the pause.
  wait_seconds := 0;
  IF v_started >= p_daily_free AND v_last IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM entitlements WHERE user_id = p_user_id AND until >= p_now
  ) THEN
    wait_seconds := greatest(0, ceil(p_delay_seconds - extract(epoch FROM (p_now - v_last))))::int;
  END IF;
END;
$$;
--> statement-breakpoint
-- mirra_accept_generation again, the same arguments and steps, with its free-tier check now the
-- call to mirra_free_tier.
CREATE OR REPLACE FUNCTION mirra_accept_generation(
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
  p_standard_priority integer
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

  -- Read after the lock, so it counts every generation the user's earlier requests made.
  SELECT f.wait_seconds, f.day_start INTO v_wait, v_day_start
    FROM mirra_free_tier(p_user_id, p_now, p_local_midnight, p_daily_free, p_delay_seconds) f;
  IF v_wait > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'generations.rate_limited', DETAIL = v_wait::text;
  END IF;
  IF p_cost > v_balance THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'credits.insufficient', DETAIL = v_balance::text;
  END IF;

  -- The day this generation counts in is kept, so a later cookie cannot start the next one early.
  -- Written only on a change: an update of users drops every process's cached session of the user.
  UPDATE users SET free_day_started_at = v_day_start
    WHERE id = p_user_id AND free_day_started_at IS DISTINCT FROM v_day_start;

  INSERT INTO generations (
    uuid, created_at, user_id, mode, status, prompt, guidance, seed, seed_fixed, style,
    duration_seconds, aspect, input_uploads, model_uuid, post_uuid, repeat_of, cost, engine,
    client_key, client_request_hash
  ) VALUES (
    p_uuid, p_now, p_user_id, p_mode, 0, p_prompt, p_guidance, p_seed, p_seed_fixed, p_style,
    p_duration_seconds, p_aspect, p_input_uploads, p_model_uuid, p_post_uuid, p_repeat_of, p_cost,
    p_engine, p_client_key, p_client_request_hash
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
