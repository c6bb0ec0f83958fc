-- pg_trgm powers question search and duplicate candidate lookup; drizzle-kit does not emit extensions.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
