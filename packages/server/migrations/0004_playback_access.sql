-- Playback access control: ES256 signing keys (public half only; the private key is returned
-- once and never stored) and one playback policy per stream (no row: the playback ID is public).
CREATE TABLE signing_keys (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kid text NOT NULL UNIQUE,
  name text NOT NULL,
  algorithm text NOT NULL DEFAULT 'ES256' CHECK (algorithm = 'ES256'),
  public_key_pem text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX signing_keys_tenant_page ON signing_keys (tenant_id, created_at, id);

CREATE TABLE playback_policies (
  stream_id uuid PRIMARY KEY REFERENCES streams (id) ON DELETE CASCADE,
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
