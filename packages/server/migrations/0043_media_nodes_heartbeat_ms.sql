-- Each node's heartbeat period (issue 20): a node is stale after three of its own periods, so nodes
-- with different AIRWAVE_HEARTBEAT_SECONDS do not take each other for dead between heartbeats.
ALTER TABLE media_nodes ADD COLUMN heartbeat_ms integer NOT NULL DEFAULT 5000;
