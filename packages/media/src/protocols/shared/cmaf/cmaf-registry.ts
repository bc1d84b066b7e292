/**
 * One CmafPackager per live stream of a hub, looked up by playback id. LL-HLS and DASH share the
 * registry of their hub (`CmafRegistry.forHub`), so each stream is packaged once. An ended stream
 * keeps answering for a grace period so players see EXT-X-ENDLIST / a static MPD.
 */
import type { Hub } from '../../../hub/hub.js';
import { type PackagedStream, PackagedStreams } from '../packaged-streams.js';
import type { CmafPackagerOptions } from './cmaf-options.js';
import { CmafPackager } from './cmaf-packager.js';
import { type CmafStatus, cmafStatus } from './cmaf-status.js';

/** Options of the registry of a hub (the first `forHub` call for a hub decides them). */
export interface CmafRegistryOptions {
  /** Segment and part targets, window. */
  readonly packager?: CmafPackagerOptions;
  /** How long an ended stream keeps answering (default 60 s). */
  readonly endedGraceMs?: number;
}

/** A packaged stream. */
export type CmafEntry = PackagedStream<CmafPackager>;

const registries = new WeakMap<Hub, CmafRegistry>();

/** The packagers of every stream of one hub. */
export class CmafRegistry extends PackagedStreams<CmafPackager> {
  /** The registry of `hub`, created (and attached to the hub) on first use. */
  static forHub(hub: Hub, options: CmafRegistryOptions = {}): CmafRegistry {
    let registry = registries.get(hub);
    if (!registry) {
      registry = new CmafRegistry(hub, options);
      registries.set(hub, registry);
    }
    return registry;
  }

  private constructor(hub: Hub, options: CmafRegistryOptions) {
    super(
      hub,
      (stream) => {
        const log = options.packager?.log?.child({ streamId: stream.streamId, output: 'cmaf' });
        return new CmafPackager({ ...options.packager, ...(log ? { log } : {}) });
      },
      options.endedGraceMs,
    );
  }

  /** Measurements and state of one stream, or undefined when the registry does not know it. */
  status(playbackId: string): CmafStatus | undefined {
    const entry = this.get(playbackId);
    return entry ? cmafStatus(entry.packager) : undefined;
  }
}
