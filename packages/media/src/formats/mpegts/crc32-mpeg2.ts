/** CRC-32/MPEG-2 (ISO/IEC 13818-1 Annex A): polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection, no final xor. */

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 24;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    }
    table[i] = crc >>> 0;
  }
  return table;
})();

/**
 * CRC-32/MPEG-2 of `data`, as PSI sections carry it in CRC_32; with `initial` 0 it is the CRC of
 * Ogg pages (RFC 3533 §6), the same polynomial without the preset.
 */
export function crc32Mpeg2(data: Uint8Array, initial = 0xffffffff): number {
  let crc = initial;
  for (const byte of data) {
    crc = ((crc << 8) ^ (TABLE[((crc >>> 24) ^ byte) & 0xff] as number)) >>> 0;
  }
  return crc;
}
