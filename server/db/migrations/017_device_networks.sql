-- Secrets every server process of a deployment shares, made once by the first process that needs
-- one (server/broker/live-signature.ts: the key that signs live messages on an external broker).
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  secret text NOT NULL,
  created_at bigint NOT NULL
);

-- An organisation's secret for a radio network's cloud callbacks (Sigfox backend, Myriota
-- destination): the callback sends it in a header; regenerating replaces it at once.
CREATE TABLE network_secrets (
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  network text NOT NULL CHECK (network IN ('sigfox', 'myriota')),
  secret text NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (org_id, network)
);
CREATE UNIQUE INDEX network_secrets_secret ON network_secrets (network, secret);
