-- Recordings (DVR) of live streams and the artifacts cut from them (chapters, clips), each with
-- its own playback ID. Media bytes live in object storage under storage_prefix; rows hold the
-- lifecycle, totals and the range of segments an artifact covers.
CREATE TABLE recordings (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  stream_id uuid NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  dvr_hash text NOT NULL UNIQUE,
  playback_id text NOT NULL UNIQUE,
  -- requested starting recording finalizing completed completed_partial failed deleted
  status text NOT NULL,
  node_id text NOT NULL,
  storage_prefix text NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  duration_ms bigint NOT NULL DEFAULT 0,
  size_bytes bigint NOT NULL DEFAULT 0,
  segment_count integer NOT NULL DEFAULT 0,
  error_message text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX recordings_stream ON recordings (stream_id, created_at DESC);
CREATE INDEX recordings_open ON recordings (node_id) WHERE status IN ('starting', 'recording', 'finalizing');

CREATE TABLE media_artifacts (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  stream_id uuid NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  recording_id uuid NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('CHAPTER', 'CLIP')),
  hash text NOT NULL UNIQUE,
  playback_id text NOT NULL UNIQUE,
  title text,
  description text,
  -- processing ready failed
  status text NOT NULL,
  -- Segments of the recording's leading track the artifact covers (inclusive).
  first_segment integer NOT NULL,
  last_segment integer NOT NULL,
  start_unix_ms bigint NOT NULL,
  end_unix_ms bigint NOT NULL,
  start_offset_ms bigint NOT NULL,
  duration_ms bigint NOT NULL,
  size_bytes bigint NOT NULL DEFAULT 0,
  has_gaps boolean NOT NULL DEFAULT false,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  error_message text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz
);
CREATE INDEX media_artifacts_tenant_kind ON media_artifacts (tenant_id, kind, created_at DESC);
CREATE INDEX media_artifacts_recording ON media_artifacts (recording_id, start_offset_ms);
