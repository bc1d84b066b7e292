/**
 * One CmafPackager per live stream of a hub, looked up by playback id. LL-HLS and DASH share the
 * registry of their hub (`CmafRegistry.forHub`), so each stream is packaged once: from publish on,
 * or on demand from the first request, primed from the stream's history. An ended stream keeps
 * answering for a grace period so players see EXT-X-ENDLIST / a static MPD.
 */
import type { Hub } from '../../../hub/hub.js';
import { ReplayClock } from '../../../hub/replay-clock.js';
import { type PackagedStream, PackagedStreams, type PackagingOptions } from '../packaged-streams.js';
import { type CmafPackagerOptions, resolveCmafOptions } from './cmaf-options.js';
import { CmafPackager } from './cmaf-packager.js';
import { type CmafStatus, cmafStatus } from './cmaf-status.js';

/** Options of the registry of a hub (the first `forHub` call for a hub decides them). */
export interface CmafRegistryOptions extends PackagingOptions {
  /** Segment and part targets, window. */
  readonly packager?: CmafPackagerOptions;
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
    const resolved = resolveCmafOptions(options.packager);
    super(
      hub,
      (stream) => {
        const log = options.packager?.log?.child({ streamId: stream.streamId, output: 'cmaf' });
        const clock = new ReplayClock(resolved.now);
        return { packager: new CmafPackager({ ...options.packager, now: clock.now, ...(log ? { log } : {}) }), clock };
      },
      {
        seconds: (resolved.windowSegments + 1) * resolved.segmentTargetSeconds,
        gops: resolved.windowSegments + 1,
      },
      options,
    );
  }

  /** Measurements and state of one stream, or undefined when the registry does not know it. */
  status(playbackId: string): CmafStatus | undefined {
    const entry = this.get(playbackId);
    return entry ? cmafStatus(entry.packager) : undefined;
  }
}
