/**
 * Fuzz targets for what an LL-HLS/DASH request carries from the network (RFC 8216bis §6.2.5
 * delivery directives, CMAF resource paths): parsing and the checks against a live track never
 * throw, whatever the bytes.
 */

import type { FuzzTarget } from '../../../testing/fuzz.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../../testing/synthetic-av.js';
import { parseCmafResource } from '../../shared/cmaf/cmaf-names.js';
import { CmafPackager } from '../../shared/cmaf/cmaf-packager.js';
import { findPart, findSegment } from '../../shared/cmaf/cmaf-resources.js';
import { parseDirectives, satisfies, tooFarAhead } from './blocking-reload.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function livePackager(): CmafPackager {
  const packager = new CmafPackager({ now: () => 0 });
  packager.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
  for (const unit of syntheticUnits({ seconds: 6.6 })) {
    packager.onUnit(unit);
  }
  return packager;
}

/** Delivery directives and resource paths against a packager holding 6.6 s of media. */
export const fuzzTargets: FuzzTarget[] = (() => {
  const packager = livePackager();
  const video = packager.track('video');
  if (!video) {
    throw new Error('the fuzz packager has no video track');
  }
  return [
    {
      name: 'LL-HLS delivery directives',
      seeds: [
        '_HLS_msn=3&_HLS_part=1',
        '_HLS_msn=2&_HLS_skip=YES',
        '_HLS_skip=v2',
        '_HLS_msn=99999999&_HLS_part=0',
      ].map((text) => encoder.encode(text)),
      run(input) {
        const query = Object.fromEntries(new URLSearchParams(decoder.decode(input)));
        const parsed = parseDirectives(query);
        if (parsed.ok) {
          tooFarAhead(video, parsed.value, 0.5);
          satisfies(video, parsed.value);
        }
      },
    },
    {
      name: 'CMAF resource paths',
      seeds: ['video-part-12.m4s', 'audio-3.m4s', 'video-init-0.mp4', 'index.m3u8'].map((text) => encoder.encode(text)),
      run(input) {
        const resource = parseCmafResource(decoder.decode(input));
        if (resource?.type === 'part') {
          findPart(video, resource.sequence);
        } else if (resource?.type === 'segment') {
          findSegment(video, resource.msn);
        } else if (resource?.type === 'init') {
          video.init(resource.version);
        }
      },
    },
  ];
})();
