-- Playback policies of single pieces of stored content (setPlaybackPolicy with clipId, or
-- vodAssetId): they replace, for that content's playback ID only, the policy it would otherwise
-- inherit (a clip: its stream's; a VOD asset: public). Keyed by the content's playback ID, which
-- is never reused. Applied after later files on existing databases: refers to 0001–0010 only.
CREATE TABLE content_playback_policies (
  playback_id text PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  content_kind text NOT NULL CHECK (content_kind IN ('CLIP', 'VOD')),
  content_id uuid NOT NULL,
  -- The stream the content came from (clips); null for uploads.
  stream_id uuid REFERENCES streams (id) ON DELETE CASCADE,
  policy_type text NOT NULL CHECK (policy_type IN ('PUBLIC', 'JWT', 'WEBHOOK')),
  allowed_kids text[] NOT NULL DEFAULT '{}',
  webhook_url text,
  webhook_secret text,
  webhook_timeout_ms integer CHECK (webhook_timeout_ms BETWEEN 1 AND 10000),
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL,
  UNIQUE (content_kind, content_id),
  CHECK (policy_type <> 'WEBHOOK' OR (webhook_url IS NOT NULL AND webhook_secret IS NOT NULL AND webhook_timeout_ms IS NOT NULL))
);
