/**
 * The browser side of a multipart VOD upload: PUT every part of the file (a slice of the File, so
 * nothing is copied into memory) to its presigned URL, a few at a time, with XMLHttpRequest because
 * it reports upload progress (fetch does not); keeps each part's ETag for completeVodUpload.
 */

/** What createVodUpload answered that the upload needs. */
export interface UploadPlan {
  readonly partSize: number;
  readonly parts: readonly { readonly partNumber: number; readonly presignedUrl: string }[];
}

/** One uploaded part, as completeVodUpload takes it. */
export interface UploadedPart {
  readonly partNumber: number;
  readonly etag: string;
}

/** Parts in flight at once. */
const PARALLEL = 3;

/** PUTs one part; resolves with its ETag. `progress` gets the part's bytes sent so far. */
function putPart(url: string, body: Blob, progress: (sent: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (event) => progress(event.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('etag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) {
        progress(body.size);
        resolve(etag);
      } else {
        reject(new Error(`The storage refused a part (HTTP ${xhr.status}${etag ? '' : ', no ETag'}).`));
      }
    };
    xhr.onerror = () => reject(new Error('A part could not be sent. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('The upload was cancelled.'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** Uploads `file` by `plan`; `onProgress` gets the fraction (0–1) of bytes sent. Answers the parts in order. */
export async function uploadParts(
  file: Blob,
  plan: UploadPlan,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<UploadedPart[]> {
  const sent = new Map<number, number>();
  const report = () => {
    let total = 0;
    for (const bytes of sent.values()) {
      total += bytes;
    }
    onProgress(file.size > 0 ? Math.min(1, total / file.size) : 1);
  };
  const done: UploadedPart[] = [];
  let next = 0;
  const worker = async () => {
    while (next < plan.parts.length && !signal.aborted) {
      const part = plan.parts[next++];
      if (!part) {
        return;
      }
      const start = (part.partNumber - 1) * plan.partSize;
      const body = file.slice(start, Math.min(file.size, start + plan.partSize));
      const etag = await putPart(
        part.presignedUrl,
        body,
        (bytes) => {
          sent.set(part.partNumber, bytes);
          report();
        },
        signal,
      );
      done.push({ partNumber: part.partNumber, etag });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, plan.parts.length) }, worker));
  if (signal.aborted) {
    throw new Error('The upload was cancelled.');
  }
  return done.sort((a, b) => a.partNumber - b.partNumber);
}
