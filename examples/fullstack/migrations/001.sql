-- The schema and first rows of the fullstack example. procs runs this on
-- every `procs up` and .data/ keeps the database, so it must be safe to run
-- again.
CREATE TABLE IF NOT EXISTS items (
  id   serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);

INSERT INTO items (name) VALUES
  ('Postgres, started by procs'),
  ('a migration, run once Postgres was ready'),
  ('Flask, started once the migration completed'),
  ('Vite, started once Flask was ready')
ON CONFLICT (name) DO NOTHING;
