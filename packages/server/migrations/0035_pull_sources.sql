-- Pull sources: on-demand pulling, the pull's live state (which node pulls, in which phase, with
-- its lease) and the recent outcome of every connection attempt.
ALTER TABLE streams ADD COLUMN pull_source_on_demand boolean NOT NULL DEFAULT false;

CREATE TABLE pull_source_state (
  stream_id uuid PRIMARY KEY REFERENCES streams (id) ON DELETE CASCADE,
  -- The node holding the pull; another node may take it once lease_until has passed.
  node_id text NOT NULL,
  lease_until timestamptz NOT NULL,
  phase text NOT NULL CHECK (phase IN ('CONNECTING', 'PULLING', 'RETRYING', 'STOPPED')),
  attempt integer NOT NULL DEFAULT 0,
  failures integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_error text,
  updated_at timestamptz NOT NULL
);

CREATE TABLE pull_source_events (
  id bigserial PRIMARY KEY,
  stream_id uuid NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  node_id text NOT NULL,
  event_kind text NOT NULL,
  attempt integer NOT NULL,
  message text NOT NULL,
  address text,
  created_at timestamptz NOT NULL
);
CREATE INDEX pull_source_events_stream ON pull_source_events (stream_id, id DESC);
