-- Playback sessions and their roll-up per stream and UTC day (issue 20). No foreign keys: the
-- media plane writes these in batches after the fact, and a stream deleted meanwhile must not
-- fail the batch; analytics are read only through a stream the caller owns.
CREATE TABLE viewer_sessions (
  id uuid PRIMARY KEY,
  stream_id uuid,
  -- live, dvr, clip or vod; content_id is the playback id the viewer asked for.
  content_type text NOT NULL,
  content_id text NOT NULL,
  node_id text NOT NULL,
  protocol text NOT NULL,
  -- Salted hash of the viewer's IP and user agent (the salt changes every UTC day).
  viewer_key text NOT NULL,
  started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  ended_at timestamptz,
  bytes_sent bigint NOT NULL DEFAULT 0
);
CREATE INDEX viewer_sessions_stream ON viewer_sessions (stream_id, started_at);
CREATE INDEX viewer_sessions_open ON viewer_sessions (node_id) WHERE ended_at IS NULL;

CREATE TABLE stream_analytics_daily (
  stream_id uuid NOT NULL,
  day date NOT NULL,
  total_views bigint NOT NULL DEFAULT 0,
  unique_viewers bigint NOT NULL DEFAULT 0,
  egress_bytes bigint NOT NULL DEFAULT 0,
  viewer_seconds double precision NOT NULL DEFAULT 0,
  peak_concurrent integer NOT NULL DEFAULT 0,
  PRIMARY KEY (stream_id, day)
);

-- Which viewer keys were counted for a stream and day (makes uniqueViewers exact across nodes).
CREATE TABLE stream_daily_viewers (
  stream_id uuid NOT NULL,
  day date NOT NULL,
  viewer_key text NOT NULL,
  PRIMARY KEY (stream_id, day, viewer_key)
);

-- Concurrent viewers per stream, minute and node (the most seen in that minute); the peak of a
-- day is the largest sum over nodes of one minute. Rows older than two days are pruned.
CREATE TABLE stream_concurrency (
  stream_id uuid NOT NULL,
  minute timestamptz NOT NULL,
  node_id text NOT NULL,
  viewers integer NOT NULL,
  PRIMARY KEY (stream_id, minute, node_id)
);

-- The salt of each UTC day's viewer keys, shared by every node; deleted two days later.
CREATE TABLE analytics_salts (
  day date PRIMARY KEY,
  salt text NOT NULL
);
