/**
 * The media plane's PublishAuthorizer backed by stream keys: any active key of a stream may
 * publish to it; deleted and rotated keys are refused, and so are pushes to PULL streams (and
 * pulls of PUSH streams). Each accepted key gets lastUsedAt.
 */
import type { IngestProtocol, Logger, PublishAuthorizer, PublishGrant } from '@airwave/media';
import type { StreamKeysService } from '../domain/streams/stream-keys.service.js';

/** Authorizes publishes by stream key. */
export class StreamKeyPublishAuthorizer implements PublishAuthorizer {
  constructor(
    private readonly keys: StreamKeysService,
    private readonly log: Logger,
  ) {}

  /** Resolves a presented key to its stream, or null (logged) when it is unknown or inactive. */
  async authorize(streamKey: string, protocol: IngestProtocol): Promise<PublishGrant | null> {
    const grant = await this.keys.authorizeIngest(streamKey, protocol === 'pull' ? 'PULL' : 'PUSH');
    if (!grant) {
      this.log.info(
        { protocol },
        'publish refused: unknown or inactive stream key, or a stream of the other ingest mode',
      );
      return null;
    }
    this.log.debug({ protocol, streamId: grant.streamId, keyId: grant.keyId }, 'publish authorized');
    return { streamId: grant.streamId, playbackId: grant.playbackId };
  }
}
