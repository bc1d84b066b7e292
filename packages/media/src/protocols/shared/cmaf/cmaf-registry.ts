/**
 * One CmafPackager per live stream of a hub, looked up by playback id. LL-HLS and DASH share the
 * registry of their hub (`CmafRegistry.forHub`), so each stream is packaged once. An ended stream
 * keeps answering for a grace period so players see EXT-X-ENDLIST / a static MPD.
 */
import type { Hub, StreamOutput } from '../../../hub/hub.js';
import type { LiveStream } from '../../../hub/live-stream.js';
import type { CmafPackagerOptions } from './cmaf-options.js';
import { CmafPackager } from './cmaf-packager.js';

/** Options of the registry of a hub (the first `forHub` call for a hub decides them). */
export interface CmafRegistryOptions {
  /** Segment and part targets, window. */
  readonly packager?: CmafPackagerOptions;
  /** How long an ended stream keeps answering (default 60 s). */
  readonly endedGraceMs?: number;
}

/** A packaged stream. */
export interface CmafEntry {
  readonly stream: LiveStream;
  readonly packager: CmafPackager;
}

interface Held extends CmafEntry {
  timer: NodeJS.Timeout | undefined;
}

const registries = new WeakMap<Hub, CmafRegistry>();

/** The packagers of every stream of one hub. */
export class CmafRegistry {
  private readonly entries = new Map<string, Held>();
  private readonly endedGraceMs: number;

  /** The registry of `hub`, created (and attached to the hub) on first use. */
  static forHub(hub: Hub, options: CmafRegistryOptions = {}): CmafRegistry {
    let registry = registries.get(hub);
    if (!registry) {
      registry = new CmafRegistry(hub, options);
      registries.set(hub, registry);
    }
    return registry;
  }

  private constructor(
    hub: Hub,
    private readonly options: CmafRegistryOptions,
  ) {
    this.endedGraceMs = options.endedGraceMs ?? 60_000;
    hub.addOutput((stream) => this.open(stream));
  }

  /** The packaged stream with this playback id (live, reconnecting, or ended within the grace period). */
  get(playbackId: string): CmafEntry | undefined {
    return this.entries.get(playbackId);
  }

  /** Forgets every stream and stops the grace timers (shutdown). */
  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
    }
    this.entries.clear();
  }

  private open(stream: LiveStream): StreamOutput {
    const previous = this.entries.get(stream.playbackId);
    if (previous) {
      clearTimeout(previous.timer);
    }
    const log = this.options.packager?.log?.child({ streamId: stream.streamId, output: 'cmaf' });
    const packager = new CmafPackager({ ...this.options.packager, ...(log ? { log } : {}) });
    const entry: Held = { stream, packager, timer: undefined };
    this.entries.set(stream.playbackId, entry);
    const detach = stream.attach(packager);
    return {
      close: () => {
        detach();
        packager.onEnd(stream.endReason ?? 'stream closed');
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (this.entries.get(stream.playbackId) === entry) {
            this.entries.delete(stream.playbackId);
          }
        }, this.endedGraceMs);
        entry.timer.unref();
      },
    };
  }
}
