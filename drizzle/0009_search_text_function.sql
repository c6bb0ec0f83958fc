-- What question search reads: the text, the option VALUES and the explanation, lower-cased. The options'
-- keys and JSON punctuation are left out, so searching "a", '"' or ":" no longer matches every question,
-- and a quote inside an option is stored as typed (not escaped). IMMUTABLE so a stored generated column
-- can use it (the next migration redefines questions.search_text with it).
CREATE OR REPLACE FUNCTION question_search_text(body text, options jsonb, explanation text)
RETURNS text
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
RETURN lower(
  body || ' ' ||
  coalesce(
    (SELECT string_agg(o.value, ' ' ORDER BY o.key) FROM jsonb_each_text(
      CASE WHEN jsonb_typeof(options) = 'object' THEN options ELSE '{}'::jsonb END
    ) AS o),
    ''
  ) || ' ' || explanation
);
