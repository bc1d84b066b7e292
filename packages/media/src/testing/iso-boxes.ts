/** Test-only ISO/IEC 14496-12 box walker: finds boxes by path so tests can check what a muxer wrote. */

/** One box: its type, where it starts and its payload (after the 8-byte header). */
export interface IsoBox {
  readonly type: string;
  readonly offset: number;
  readonly size: number;
  readonly payload: Uint8Array;
}

/** Container boxes the walker descends into. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'mvex', 'moof', 'traf', 'dinf']);

/** Lists the boxes of `data` in order (no 64-bit sizes); throws when a size overruns. */
export function readBoxes(data: Uint8Array, base = 0): IsoBox[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const boxes: IsoBox[] = [];
  let offset = 0;
  while (offset < data.length) {
    const size = view.getUint32(offset);
    const type = String.fromCharCode(...data.subarray(offset + 4, offset + 8));
    if (size < 8 || offset + size > data.length) {
      throw new Error(`box ${type} at ${base + offset} has bad size ${size}`);
    }
    boxes.push({ type, offset: base + offset, size, payload: data.subarray(offset + 8, offset + size) });
    offset += size;
  }
  return boxes;
}

/** All boxes along a path such as `moof/traf/trun`, descending into container boxes. */
export function findBoxes(data: Uint8Array, path: string, base = 0): IsoBox[] {
  const [head, ...rest] = path.split('/');
  const matches = readBoxes(data, base).filter((box) => box.type === head);
  if (rest.length === 0) {
    return matches;
  }
  return matches.flatMap((box) =>
    CONTAINERS.has(box.type) ? findBoxes(box.payload, rest.join('/'), box.offset + 8) : [],
  );
}

/** The single box at `path`; throws unless exactly one exists. */
export function findBox(data: Uint8Array, path: string): IsoBox {
  const found = findBoxes(data, path);
  if (found.length !== 1 || !found[0]) {
    throw new Error(`expected one ${path}, found ${found.length}`);
  }
  return found[0];
}

/** A DataView over a box payload. */
export function viewOf(box: IsoBox): DataView {
  return new DataView(box.payload.buffer, box.payload.byteOffset, box.payload.byteLength);
}
