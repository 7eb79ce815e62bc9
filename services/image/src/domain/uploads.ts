import { ACCEPTED_TYPES, MAX_UPLOAD_BYTES, UPLOAD_PREFIX } from '@flatlay/files/uploads';

// What a photo upload must be (formats, at most 10 MB, under the uploads prefix) is agreed with the
// gateway in @flatlay/files; this is the service's own check of a generation's upload.
export { ACCEPTED_TYPES, MAX_UPLOAD_BYTES, UPLOAD_PREFIX };

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
