-- Streams, their ingest keys, and the media nodes that report stream status.
CREATE TABLE streams (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  playback_id text NOT NULL UNIQUE,
  record boolean NOT NULL DEFAULT false,
  ingest_mode text NOT NULL CHECK (ingest_mode IN ('PUSH', 'PULL')),
  pull_source_uri text,
  pull_source_enabled boolean NOT NULL DEFAULT true,
  pull_source_class text CHECK (pull_source_class IN ('public', 'private')),
  source_location text,
  -- Live status as the media plane reports it (OFFLINE LIVE RECORDING ENDED RECONNECTING).
  status text NOT NULL DEFAULT 'OFFLINE',
  status_node_id text,
  current_viewers integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  status_updated_at timestamptz,
  tracks jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX streams_tenant_page ON streams (tenant_id, created_at DESC, id DESC);
CREATE INDEX streams_live_node ON streams (status_node_id) WHERE status <> 'OFFLINE';

CREATE TABLE stream_keys (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  stream_id uuid NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  key_value text NOT NULL UNIQUE,
  key_name text NOT NULL,
  is_primary boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX stream_keys_one_primary ON stream_keys (stream_id) WHERE is_primary;
CREATE INDEX stream_keys_stream_page ON stream_keys (stream_id, created_at DESC, id DESC);

CREATE TABLE media_nodes (
  id text PRIMARY KEY,
  base_url text NOT NULL,
  version text NOT NULL,
  started_at timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL
);
