import { api } from '#lib/api-client.ts';

/** What an XMLHttpRequest answered: its status and body (the body parsed when it is JSON). */
export interface XhrAnswer<T> {
  status: number;
  statusText: string;
  body: Partial<T> & { message?: string };
}

/** The request never got an answer (offline, connection reset, blocked). */
export class NetworkError extends Error {
  constructor() {
    super('Network error');
    this.name = 'NetworkError';
  }
}

/**
 * Sends a body with XMLHttpRequest, whose upload events (unlike fetch) report progress: `onProgress`
 * receives 0 to 100. Resolves with any answer (the caller decides what a status means); rejects
 * with NetworkError when no answer came.
 */
export function sendWithProgress<T>(opts: {
  method: 'POST' | 'PUT';
  url: string;
  body: XMLHttpRequestBodyInit;
  contentType?: string;
  onProgress: (percent: number) => void;
}): Promise<XhrAnswer<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(opts.method, opts.url);
    xhr.withCredentials = true;
    if (opts.contentType) xhr.setRequestHeader('content-type', opts.contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: XhrAnswer<T>['body'] = {};
      try {
        body = (xhr.responseText ? JSON.parse(xhr.responseText) : {}) as XhrAnswer<T>['body'];
      } catch {
        body = { message: xhr.responseText } as XhrAnswer<T>['body'];
      }
      resolve({ status: xhr.status, statusText: xhr.statusText, body });
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new NetworkError());
    xhr.send(opts.body);
  });
}

/** POST /api/upload/image answer (SPEC 3 "Upload result"). */
export interface ImageUploadResult {
  success: boolean;
  url: string;
  message: string;
  width?: number;
  height?: number;
}

/** POST /api/upload/image: multipart, field `image`. */
export function uploadImage(file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('image', file);
  return sendWithProgress<ImageUploadResult>({ method: 'POST', url: '/api/upload/image', body: form, onProgress });
}

/** SPEC 7: an uploaded image (its path contains /uploads/) is deleted by its last path segment. */
export function isUploadedImage(url: string): boolean {
  return url.includes('/uploads/');
}
export function deleteUploadedImage(url: string) {
  const filename = new URL(url, window.location.origin).pathname.split('/').pop() ?? '';
  return api.delete<{ success: boolean; message: string }>('/api/upload/image', { filename });
}
