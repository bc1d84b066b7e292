/**
 * Small real bitstreams captured from Debian's ffmpeg 5.1 (libx264, libx265, libaom-av1,
 * libvpx-vp9, the native AAC encoder, libopus) on lavfi test sources, as hex. They seed the fuzz
 * targets and back the unit tests that run without ffmpeg. Truncated samples say so by name.
 */

/** Decodes a hex string. */
export function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Hex fixtures by name. */
export const FIXTURES = {
  /** libx264 High profile, 64x64, 30 fps: SPS with VUI timing. */
  h264Sps: '6764000aacb2084d8088000003000800000301e078913240',
  /** The matching PPS. */
  h264Pps: '68ebc3cb22c0',
  /** avcC built from h264Sps and h264Pps (with the High-profile extension bytes). */
  h264Avcc: '0164000affe100186764000aacb2084d8088000003000800000301e07891324001000668ebc3cb22c0fdf8f800',
  /** SPS, PPS and the first 48 bytes of an IDR slice, 4-byte length-prefixed. */
  h264KeyAccessUnit:
    '000000186764000aacb2084d8088000003000800000301e0789132400000000668ebc3cb22c000000030658884097fd74766b318176ca33bbd3331f78e9c118bfd7d58dc9241966775923568c586a3702961c141bdddfab5d3bd',
  /** libx264 Baseline, 1918x1078 (cropped from 1920x1088), 30000/1001 fps. */
  h264SpsBaselineCrop: '6742c028d900780227a9b01100000303e90000ea600f183248',
  /** libx265 Main, 64x64, 30 fps: VPS, SPS (with VUI timing), PPS. */
  h265Vps: '40010c01ffff01600000030090000003000003001e959809',
  h265Sps: '42010101600000030090000003000003001ea020810596566924caf0168080000003008000000f04',
  h265Pps: '4401c172b42240',
  /** hvcC built from the three parameter sets above. */
  h265Hvcc:
    '0101600000009000000000001ef000fcfdf8f81e000f03a00001001840010c01ffff01600000030090000003000003001e959809a10001002842010101600000030090000003000003001ea020810596566924caf0168080000003008000000f04a2000100074401c172b42240',
  /** The first 48 bytes of an IDR_N_LP slice, 4-byte length-prefixed. */
  h265KeyAccessUnit:
    '000000302801af0860bfc074dc063c869fbae80fc25dcded250a2af1fb97adf562d7af52a6cc28db8eef77baa1bdb50e91db81d0',
  /** libaom-av1, 64x64: sequence header OBU (with size field). */
  av1SequenceHeaderObu: '0a0a00000002afff9b5f2008',
  /** av1C built from av1SequenceHeaderObu. */
  av1C: '81000c000a0a00000002afff9b5f2008',
  /** Temporal delimiter, sequence header and a key frame OBU cut to 40 payload bytes. */
  av1KeyTemporalUnit:
    '12000a0a00000002afff9b5f20083228140022c000008020a0dd350069cfe20b317d46272adc794e0f66dd7ba74c074cbff2b8b2b21446f3',
  /** Temporal delimiter and an inter frame OBU cut to 24 payload bytes. */
  av1InterTemporalUnit: '120032183201e040000003600010408214040500db31835624684921',
  /** libvpx-vp9, 64x64: first 32 bytes of the key frame. */
  vp9KeyFrameHead: '824983420003f003f60238241c184a0003b07cb17adf49e26f75c2784f06de97',
  /** First 16 bytes of the following inter frame. */
  vp9InterFrameHead: '86004092f0314000000c7000007daf1c',
  /** vpcC box payload ffmpeg's mp4 muxer wrote for that stream (colour fields unspecified = 2). */
  vpcCFromMp4: '01000000000a820202020000',
  /** Two ADTS frames: AAC-LC, 48 kHz, mono. */
  adts: 'fff14c400f9ffcde02004c61766335392e33372e3130300002689d5198c4bd258742ebc67cc9c6ab57922e49247844ffd6c64b1bfeeff873ada72af031df98bca6e17f0bf553236135735733b7cb2e5cbc78d557cb2e5cbc78f1e39669a28b8f1e314d9628a2f0deceef1f1eec1ea2ea9e5eeb1eaae03cd5d5bcddc0fff14c40103ffc013490dacadd564b8b25c414e1bfdf8e34dad7fdbc7efe75ae35ffa7afdfceb5c6bffed5fe3ceb5ad0da9d9bb6d4a50d65b2cf70a2f7fb28183740fa50afa503e9f4d6603e9f4fa5007d3e9f4d606b9eb458b549fcdb748843133e5133e5133e5f288983e5f2e31307cbe5c4982cb9eb381212121212121213c0',
  /** AudioSpecificConfig AAC-LC 44.1 kHz stereo. */
  ascLcStereo44: '1210',
  /** HE-AAC with backward-compatible SBR signalling: LC 24 kHz stereo core, SBR to 48 kHz. */
  ascHeAacBackwardCompatible: '131056e598',
  /** libopus OpusHead, mono, 48 kHz, pre-skip 312. */
  opusHeadMono: '4f707573486561640101380180bb0000000000',
  /** libopus OpusHead, 5.1 (mapping family 1, 4 streams, 2 coupled). */
  opusHead51: '4f707573486561640106380180bb00000000010402000401020305',
  /** The first 24 bytes of a libopus packet (CELT fullband 20 ms, one frame). */
  opusPacket: 'f8b4afcaaae5b5b0a61cb17ae9fe3ad00685514ce92901cf',
} as const;

/** Decoded fixture by name. */
export function fixture(name: keyof typeof FIXTURES): Uint8Array {
  return fromHex(FIXTURES[name]);
}
