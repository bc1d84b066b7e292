-- Retention of stored media (frameworks.md §1.10) and per-stream recording settings (§1.1).
-- Numbered 0011 but applied after later files on databases that already ran them (the runner
-- applies every unrecorded file in name order), so it only refers to tables of 0001–0010.
--
-- Tenant defaults per class; no row: the service default (DVR and CLIP 30 days, VOD forever).
CREATE TABLE media_retention_policies (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  target_type text NOT NULL CHECK (target_type IN ('VOD', 'DVR', 'CLIP')),
  -- 0: kept until deleted.
  days integer NOT NULL CHECK (days >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, target_type)
);

-- Per-stream settings: retention overrides (null: the tenant default) and how recordings are cut
-- into chapters (null mode: WINDOW_SIZED, the node's interval).
CREATE TABLE stream_media_settings (
  stream_id uuid PRIMARY KEY REFERENCES streams (id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  dvr_retention_days integer CHECK (dvr_retention_days >= 0),
  clip_retention_days integer CHECK (clip_retention_days >= 0),
  dvr_chapter_mode text CHECK (dvr_chapter_mode IN ('WINDOW_SIZED', 'FIXED_INTERVAL', 'NONE')),
  dvr_chapter_interval_seconds integer CHECK (dvr_chapter_interval_seconds >= 3600),
  updated_at timestamptz NOT NULL
);

-- Per-asset overrides (updateMediaRetention): an absolute end, or null to keep the asset until
-- it is deleted. Keyed by the asset's class and UUID (recordings, clips, VOD assets); the row
-- goes when the asset does.
CREATE TABLE asset_retention_overrides (
  target_type text NOT NULL CHECK (target_type IN ('VOD', 'DVR', 'CLIP')),
  target_id uuid NOT NULL,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  retention_until timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (target_type, target_id)
);
