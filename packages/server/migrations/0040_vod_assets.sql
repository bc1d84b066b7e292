-- VOD assets (issue 18): an upload session (the store's multipart upload) that becomes an asset
-- with its own playback ID once completed and processed. Objects live under storage_prefix.
CREATE TABLE vod_assets (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  artifact_hash text NOT NULL UNIQUE,
  playback_id text NOT NULL UNIQUE,
  -- The store's multipart upload ID while uploading (S3 UploadId, or the local backend's).
  upload_id text NOT NULL,
  storage_kind text NOT NULL CHECK (storage_kind IN ('local', 's3')),
  storage_prefix text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  title text,
  description text,
  size_bytes bigint NOT NULL,
  part_bytes bigint NOT NULL,
  part_count integer NOT NULL,
  status text NOT NULL CHECK (status IN ('UPLOADING', 'PROCESSING', 'READY', 'FAILED', 'DELETED', 'EXPIRED')),
  progress_percent real NOT NULL DEFAULT 0,
  error_message text,
  duration_ms bigint,
  width integer,
  height integer,
  video_codec text,
  audio_codec text,
  bitrate_kbps integer,
  -- Bytes of every object the asset owns (source and outputs) once processed.
  stored_bytes bigint,
  outputs jsonb NOT NULL DEFAULT '[]'::jsonb,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX vod_assets_upload ON vod_assets (tenant_id, upload_id);
CREATE INDEX vod_assets_tenant_page ON vod_assets (tenant_id, created_at DESC, id DESC);
CREATE INDEX vod_assets_expiring ON vod_assets (expires_at) WHERE status = 'UPLOADING';
