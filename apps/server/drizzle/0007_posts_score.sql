-- The recommended tab's "hot" score, the same formula as postScore() in
-- src/modules/posts/posts.models.ts (a test checks they agree): ln(1 + engagement) plus the
-- publication time in units of 12 hours since 2025-01-01. The time term is fixed at publication,
-- so a score changes only with its counters and can be indexed.
-- IMMUTABLE: the epoch of a timestamptz does not depend on the session's time zone.
CREATE OR REPLACE FUNCTION mirra_post_score(
  saves integer, repeats integer, remixes integer, views integer, published_at timestamptz
) RETURNS double precision AS $$
  SELECT CASE WHEN published_at IS NULL THEN 0::float8 ELSE
    ln(1::float8 + ((3 * saves + 5 * repeats + 5 * remixes)::float8 + views::float8 / 5))
    + (extract(epoch FROM published_at)::float8 - 1735689600) / 43200
  END
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
-- Nested time buckets of the publication day (UTC days since 1970): level L holds 8^L days, the
-- last level everything; the same as searchBuckets() in posts.models.ts. Search asks the GIN index
-- below for "these words AND this bucket", newest bucket first, widening until a page is full.
CREATE OR REPLACE FUNCTION mirra_post_search_buckets(published_at timestamptz) RETURNS integer[] AS $$
  SELECT CASE WHEN published_at IS NULL THEN '{}'::integer[] ELSE
    ARRAY[d, 10000000 + d / 8, 20000000 + d / 64, 30000000 + d / 512, 40000000 + d / 4096, 50000000 + d / 32768, 60000000]
  END
  FROM (SELECT floor(extract(epoch FROM published_at) / 86400)::integer AS d) day
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION mirra_posts_set_score() RETURNS trigger AS $$
BEGIN
  NEW.score := mirra_post_score(NEW.saves_count, NEW.repeats_count, NEW.remixes_count, NEW.views_count, NEW.published_at);
  NEW.search_buckets := mirra_post_search_buckets(NEW.published_at);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER posts_score BEFORE INSERT OR UPDATE OF saves_count, repeats_count, remixes_count, views_count, published_at
  ON posts FOR EACH ROW EXECUTE FUNCTION mirra_posts_set_score();
--> statement-breakpoint
-- Words and time buckets in one GIN index: "lexeme AND bucket" is intersected inside the index,
-- so a search reads from the table only the rows it returns (plus a bounded overshoot).
CREATE INDEX posts_search_idx ON posts USING gin (search, search_buckets) WHERE status = 'published';
