/**
 * Recordings, chapters and clips for viewer routing (spec: their playback ids are contentIds): a
 * recording plays as `dvr`, a chapter or clip as `clip`, with its title, status and the outputs
 * stored content serves (CMAF HLS and DASH; an artifact's classic HLS and MP4 too). In shared storage (S3) any node plays them; in a node's local storage only
 * the node that recorded them, so routing offers no other.
 */
import type { StoredContent } from '../recordings/recording.js';
import type { ContentResolver, OutputKey, ResolvedContent } from './viewer-routing.service.js';

/** Resolves playback ids of recordings, chapters and clips. */
export class StoredContentResolver implements ContentResolver {
  constructor(
    private readonly find: (playbackId: string) => Promise<StoredContent | undefined>,
    /** Whether every node reads the same storage (S3), else each node its own directory. */
    private readonly sharedStorage: boolean,
  ) {}

  /** The stored content with this playback id, or undefined (none, or deleted). */
  async resolve(contentId: string): Promise<ResolvedContent | undefined> {
    const content = await this.find(contentId);
    if (!content || content.recording.status === 'deleted') {
      return undefined;
    }
    const { artifact, recording } = content;
    // As `/play/<id>` lists them: a chapter or clip has TS HLS and MP4 renditions too.
    const outputs: OutputKey[] = artifact ? ['HLS', 'HLS_CMAF', 'DASH', 'MP4'] : ['HLS_CMAF', 'DASH'];
    const holder = recording.nodeId;
    return {
      contentId,
      contentType: artifact ? 'clip' : 'dvr',
      title: artifact?.title ?? null,
      description: artifact?.description ?? null,
      status: artifact ? artifact.status.toUpperCase() : recording.status.toUpperCase(),
      isLive: false,
      viewers: 0,
      tracks: [],
      holders: [holder],
      outputs,
      ...(this.sharedStorage ? {} : { servedOnlyBy: [holder] }),
    };
  }
}
