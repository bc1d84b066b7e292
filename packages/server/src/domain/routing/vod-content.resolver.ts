/**
 * VOD assets for viewer routing (spec: a VOD upload's playback id is its `contentId`): the asset
 * by playback id with its status, title and tracks, and the outputs processing made. An asset in
 * S3 plays from any node; one in a node's local storage only from that node (the one that
 * processed it), so routing offers no other.
 */
import type { VodAssetRecord } from '../vod/vod-asset.js';
import type { ContentResolver, ContentTrack, OutputKey, ResolvedContent } from './viewer-routing.service.js';

/** Resolves playback ids of VOD assets. */
export class VodContentResolver implements ContentResolver {
  constructor(private readonly find: (playbackId: string) => Promise<VodAssetRecord | undefined>) {}

  /** The asset with this playback id, or undefined (none, or deleted). */
  async resolve(contentId: string): Promise<ResolvedContent | undefined> {
    const asset = await this.find(contentId);
    if (!asset || asset.status === 'DELETED' || asset.status === 'EXPIRED') {
      return undefined;
    }
    const ready = asset.status === 'READY';
    const outputs: OutputKey[] = [];
    if (ready && asset.outputs.includes('cmaf')) {
      outputs.push('HLS', 'HLS_CMAF', 'DASH');
    }
    if (ready && asset.outputs.includes('mp4')) {
      outputs.push('MP4');
    }
    const local = asset.storageKind === 'local';
    return {
      contentId,
      contentType: 'vod',
      title: asset.title ?? asset.filename,
      description: asset.description,
      status: asset.status,
      isLive: false,
      viewers: 0,
      tracks: tracksOf(asset),
      holders: local && asset.processingNode ? [asset.processingNode] : [],
      outputs,
      ...(local ? { servedOnlyBy: asset.processingNode ? [asset.processingNode] : [] } : {}),
    };
  }
}

function tracksOf(asset: VodAssetRecord): ContentTrack[] {
  const tracks: ContentTrack[] = [];
  if (asset.videoCodec) {
    tracks.push({
      type: 'video',
      codec: asset.videoCodec,
      bitrateKbps: asset.bitrateKbps,
      width: asset.width,
      height: asset.height,
      channels: null,
      sampleRate: null,
    });
  }
  if (asset.audioCodec) {
    tracks.push({
      type: 'audio',
      codec: asset.audioCodec,
      bitrateKbps: null,
      width: null,
      height: null,
      channels: null,
      sampleRate: null,
    });
  }
  return tracks;
}
