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
-- Nested time buckets of the publication day (UTC days since 1970): level L groups days by 4^L,
-- the last level is everything; the same as searchBuckets() in posts.models.ts. Search asks the GIN
-- index below for "these words AND these buckets", newest first, widening until a page is full.
CREATE OR REPLACE FUNCTION mirra_post_search_buckets(published_at timestamptz) RETURNS integer[] AS $$
  SELECT CASE WHEN published_at IS NULL THEN '{}'::integer[] ELSE
    ARRAY[d, 10000000 + d / 4, 20000000 + d / 16, 30000000 + d / 64, 40000000 + d / 256,
          50000000 + d / 1024, 60000000 + d / 4096, 70000000 + d / 16384, 80000000]
  END
  FROM (SELECT floor(extract(epoch FROM published_at) / 86400)::integer AS d) day
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
-- A search box's text as a tsquery: parsed once with websearch_to_tsquery (quotes, or, -word),
-- then every word becomes the group of its forms in each configuration the document was built
-- with: as typed (simple), and the English, Russian and German stems. 'misty lighthouses' becomes
-- ('misty' | 'misti') & ('lighthouses' | 'lighthous'): each word may match in any language.
CREATE OR REPLACE FUNCTION mirra_search_query(q text) RETURNS tsquery AS $$
DECLARE
  source text := websearch_to_tsquery('simple'::regconfig, q)::text;
  parts text[];
  words text[];
  result text;
  word text;
  forms text[];
  i integer;
BEGIN
  IF source = '' THEN RETURN ''::tsquery; END IF;
  parts := regexp_split_to_array(source, '''(?:[^'']|'''')*''');
  SELECT array_agg(m[1]) INTO words FROM regexp_matches(source, '''((?:[^'']|'''')*)''', 'g') AS m;
  result := parts[1];
  FOR i IN 1 .. coalesce(array_length(words, 1), 0) LOOP
    word := replace(words[i], '''''', '''');
    SELECT array_agg(DISTINCT f) INTO forms FROM unnest(
      ARRAY[word] || coalesce(ts_lexize('english_stem', word), '{}') || coalesce(ts_lexize('russian_stem', word), '{}')
        || coalesce(ts_lexize('german_stem', word), '{}')) AS f;
    result := result || '(' || (SELECT string_agg(quote_literal(f), ' | ') FROM unnest(forms) AS f) || ')' || parts[i + 1];
  END LOOP;
  RETURN result::tsquery;
END;
$$ LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE;
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
