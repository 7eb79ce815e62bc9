/** What a photo upload must be: one of the stated formats, at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
] as const;

/** The gateway puts uploads under this prefix; a generation may only start from one of them. */
export const UPLOAD_PREFIX = 'uploads/';

export type UploadVerdict =
  | { ok: true }
  | { ok: false; code: 'INVALID_ARGUMENT' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE'; message: string };

export function checkUpload(key: string, contentType: string, sizeBytes: number): UploadVerdict {
  if (!key.startsWith(UPLOAD_PREFIX) || key.includes('..'))
    return { ok: false, code: 'INVALID_ARGUMENT', message: 'blob_key must name an upload' };
  if (!(ACCEPTED_TYPES as readonly string[]).includes(contentType))
    return {
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).',
    };
  if (sizeBytes <= 0) return { ok: false, code: 'INVALID_ARGUMENT', message: 'The file is empty' };
  if (sizeBytes > MAX_UPLOAD_BYTES)
    return { ok: false, code: 'PAYLOAD_TOO_LARGE', message: 'The image is larger than 10MB' };
  return { ok: true };
}
