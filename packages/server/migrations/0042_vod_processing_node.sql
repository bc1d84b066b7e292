-- The node whose processing queue holds a VOD asset (issue 18): after a restart a node requeues
-- the assets it left unfinished, never those another node of a shared database is processing.
ALTER TABLE vod_assets ADD COLUMN processing_node text;
