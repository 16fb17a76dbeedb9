-- Client error reports (monitoring-client.md 9): uncaught errors and failed renders from browsers,
-- sampled on the client, readable by site admins. user_id is null for reports sent signed out.
CREATE TABLE client_errors (
  id uuid PRIMARY KEY,
  created_at bigint NOT NULL,
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  client_address text NOT NULL,
  kind text NOT NULL,
  message text NOT NULL,
  stack text,
  component_stack text,
  url text,
  user_agent text,
  release text
);
CREATE INDEX client_errors_newest ON client_errors (created_at DESC, id DESC);
