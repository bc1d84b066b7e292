-- Playback policies of VOD assets (issue 18, setPlaybackPolicy with vodAssetId): the same shape
-- as a stream's (migration 0004); no row means the asset's playback ID is public.
CREATE TABLE vod_playback_policies (
  vod_asset_id uuid PRIMARY KEY REFERENCES vod_assets (id) ON DELETE CASCADE,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  policy_type text NOT NULL CHECK (policy_type IN ('PUBLIC', 'JWT', 'WEBHOOK')),
  allowed_kids text[] NOT NULL DEFAULT '{}',
  webhook_url text,
  webhook_secret text,
  webhook_timeout_ms integer CHECK (webhook_timeout_ms BETWEEN 1 AND 10000),
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL,
  CHECK (policy_type <> 'WEBHOOK' OR (webhook_url IS NOT NULL AND webhook_secret IS NOT NULL AND webhook_timeout_ms IS NOT NULL))
);
