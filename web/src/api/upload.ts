import { IDEMPOTENCY_HEADER, newActionKey } from './action-key';
import { authHeaders } from './http';
import type { PostAnswer } from './schema';

/** The documented multipart operations (the document's paths, under /api). */
export type UploadPath = '/images/generate' | '/images/anonymous/generate' | '/images/batch';

/** The raw answer of an upload; its 2xx JSON is the document's answer for the path (`PostAnswer<P>`). */
export interface UploadAnswer {
  status: number;
  statusText: string;
  text: string;
}

/** What a documented upload answers when it succeeds. */
export type UploadBody<P extends UploadPath> = PostAnswer<P>;

/**
 * A multipart POST through XMLHttpRequest, the one browser API that reports upload progress (so
 * it cannot go through the fetch-based typed client). The path is a documented operation's
 * (`UploadBody<P>` types its answer). Resolves with the raw answer whatever its status; the
 * caller decides what an error says.
 */
export function uploadForm<P extends UploadPath>(
  path: P,
  form: FormData,
  options: {
    withToken: boolean;
    /** The share sent so far; with the bytes (a batch tells each file's share from them). */
    onProgress?: (percent: number, sent: { loaded: number; total: number }) => void;
    idempotencyKey?: string;
  },
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (options.withToken) for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    // One upload is one action: a generation charges once even if this request arrives twice.
    xhr.setRequestHeader(IDEMPOTENCY_HEADER, options.idempotencyKey ?? newActionKey());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable)
        options.onProgress?.(Math.round((e.loaded / e.total) * 100), { loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    xhr.onerror = () => reject(new Error('Network error while uploading. Please check your connection.'));
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    xhr.send(form);
  });
}
