import { baseHeaders, toApiError, ApiError } from './api';
import type { FileItem } from './types';

/**
 * Uploads one file as raw bytes (docs/api/files.md: `Content-Type` and a URL-encoded `X-Filename`) with
 * XMLHttpRequest, the browser API that reports upload progress.
 */
export function uploadFile(
  file: File,
  folderId: string | null,
  onProgress: (fraction: number) => void,
): Promise<FileItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/files${folderId ? `?folderId=${folderId}` : ''}`);
    for (const [k, v] of Object.entries(baseHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-Filename', encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(parsed as FileItem);
      } else reject(toApiError(xhr.status, parsed, xhr.getResponseHeader('X-Request-Id')));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload was interrupted', null));
    xhr.send(file);
  });
}

/** Downloads a file through fetch (the request must carry X-Workspace-Id), then saves it. */
export async function downloadFile(file: Pick<FileItem, 'id' | 'filename'>): Promise<void> {
  const res = await fetch(`/v1/files/${file.id}/content`, { headers: baseHeaders(), credentials: 'same-origin' });
  if (!res.ok) {
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      parsed = undefined;
    }
    throw toApiError(res.status, parsed, res.headers.get('X-Request-Id'));
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
