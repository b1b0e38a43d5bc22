/** Download with progress: fetch the (signed) url, read it chunk by chunk, then save it under a chosen name. */

export interface DownloadProgress {
  loaded: number;
  /** 0 when the server does not say. */
  total: number;
}

export async function fetchWithProgress(url: string, onProgress: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<Blob> {
  const res = await fetch(url, { signal, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`download status ${res.status}`);
  const total = Number(res.headers.get('content-length')) || 0;
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  if (!res.body) {
    const blob = await res.blob();
    onProgress({ loaded: blob.size, total: blob.size });
    return blob;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  if (total && loaded !== total) throw new Error('download incomplete');
  return new Blob(chunks, { type });
}

/** Hands a blob to the browser's download under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
