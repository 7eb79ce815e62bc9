/** One call to an OpenAI-compatible image edit API: `POST {baseUrl}/images/edits` (multipart). */
export interface ImageEditRequest {
  baseUrl: string;
  apiKey: string;
  model: string;
  prompt: string;
  /** The photo as JPEG, PNG or WebP (what these APIs accept). */
  image: Buffer;
  imageType: 'image/jpeg' | 'image/png' | 'image/webp';
  timeoutMs: number;
}

export class ImageEditError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ImageEditError';
  }
}

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const;

/**
 * Sends the photo and prompt, answers the edited image's bytes. GPT image models answer
 * `data[0].b64_json`; older ones may answer `data[0].url`, fetched here within the same deadline.
 * Any other answer is an ImageEditError (the caller falls back to the local engine).
 */
export async function editImage(req: ImageEditRequest): Promise<Buffer> {
  const signal = AbortSignal.timeout(req.timeoutMs);
  const form = new FormData();
  form.append('model', req.model);
  form.append('prompt', req.prompt);
  form.append('n', '1');
  form.append('image', new Blob([req.image], { type: req.imageType }), `photo.${EXTENSIONS[req.imageType]}`);
  const res = await fetch(`${req.baseUrl}/images/edits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${req.apiKey}` },
    body: form,
    signal,
  });
  const text = await res.text();
  if (!res.ok) {
    // The provider's own message (never our key): e.g. a billing limit or a refused prompt.
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      /* not JSON: keep the text */
    }
    throw new ImageEditError(`the image edit API answered ${res.status}: ${message}`, res.status);
  }
  let first: { b64_json?: unknown; url?: unknown } | undefined;
  try {
    first = (JSON.parse(text) as { data?: Array<{ b64_json?: unknown; url?: unknown }> }).data?.[0];
  } catch {
    throw new ImageEditError('the image edit API answered something other than JSON');
  }
  if (typeof first?.b64_json === 'string' && first.b64_json) return Buffer.from(first.b64_json, 'base64');
  if (typeof first?.url === 'string' && first.url) {
    const image = await fetch(first.url, { signal });
    if (!image.ok) throw new ImageEditError(`the edited image could not be fetched (${image.status})`, image.status);
    return Buffer.from(await image.arrayBuffer());
  }
  throw new ImageEditError('the image edit API answered no image');
}
