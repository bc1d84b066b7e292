-- Every node registers its role, position, capacity and mode, and heartbeats its load (issue 20).
ALTER TABLE media_nodes ADD COLUMN role text NOT NULL DEFAULT 'all' CHECK (role IN ('all', 'media'));
ALTER TABLE media_nodes ADD COLUMN region text;
ALTER TABLE media_nodes ADD COLUMN latitude double precision;
ALTER TABLE media_nodes ADD COLUMN longitude double precision;
ALTER TABLE media_nodes ADD COLUMN capacity_mbps double precision NOT NULL DEFAULT 1000;
-- NORMAL or DRAINING (never chosen for new viewers); STOPPED once it shut down cleanly.
ALTER TABLE media_nodes ADD COLUMN mode text NOT NULL DEFAULT 'NORMAL';
ALTER TABLE media_nodes ADD COLUMN stopped_at timestamptz;
ALTER TABLE media_nodes ADD COLUMN cpu_percent double precision NOT NULL DEFAULT 0;
ALTER TABLE media_nodes ADD COLUMN viewers integer NOT NULL DEFAULT 0;
ALTER TABLE media_nodes ADD COLUMN egress_mbps double precision NOT NULL DEFAULT 0;
ALTER TABLE media_nodes ADD COLUMN streams integer NOT NULL DEFAULT 0;
-- Listening services ([{serviceId, protocol, host, port, healthEndpoint}]) and playback outputs served.
ALTER TABLE media_nodes ADD COLUMN services jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE media_nodes ADD COLUMN outputs jsonb NOT NULL DEFAULT '[]'::jsonb;
-- Viewers per stream UUID on this node ({"<uuid>": n}), streams with viewers only.
ALTER TABLE media_nodes ADD COLUMN stream_viewers jsonb NOT NULL DEFAULT '{}'::jsonb;
