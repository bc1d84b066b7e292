-- Push targets: restream destinations of one stream (spec §2, frameworks.md §1.3). The target URI
-- holds the platform's stream key: it is kept sealed (AES-256-GCM, key in server_secrets) and
-- masked for reading; the live state is written by the node that pushes.
CREATE TABLE push_targets (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  stream_id uuid NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  platform text NOT NULL,
  name text NOT NULL,
  target_uri_sealed text NOT NULL,
  target_uri_masked text NOT NULL,
  is_enabled boolean NOT NULL DEFAULT true,
  -- idle connecting pushing retrying failed (ADR 0035).
  status text NOT NULL DEFAULT 'idle',
  last_error text,
  last_pushed_at timestamptz,
  bytes_sent bigint NOT NULL DEFAULT 0,
  bitrate_bps integer NOT NULL DEFAULT 0,
  dropped_units bigint NOT NULL DEFAULT 0,
  -- The node that last reported the state.
  node_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX push_targets_stream ON push_targets (stream_id, created_at, id);
CREATE INDEX push_targets_node ON push_targets (node_id) WHERE status <> 'idle';
