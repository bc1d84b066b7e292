-- SRT ingest: a stream's own passphrase (write-only through the API; the listener needs it in
-- clear to derive the key-encrypting key), and the statistics of a stream's current or last
-- SRT connection as its node last reported them.
CREATE TABLE stream_srt_passphrases (
  stream_id uuid PRIMARY KEY REFERENCES streams (id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  passphrase text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE stream_ingest_connections (
  stream_id uuid PRIMARY KEY REFERENCES streams (id) ON DELETE CASCADE,
  node_id text NOT NULL,
  session_id text NOT NULL,
  protocol text NOT NULL,
  connected boolean NOT NULL,
  stats jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
