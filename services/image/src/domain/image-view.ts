// What a caller sees of an image. A locked result shows its watermarked preview only: the full
// file's URL is never handed out until it is unlocked.

export type ImageStatus = 'processing' | 'completed' | 'failed';

export interface ImageRecord {
  imageId: string;
  /** Owner; null for a guest's try that nobody has claimed. */
  userId: string | null;
  status: ImageStatus;
  isLocked: boolean;
  originalKey: string;
  resultKey: string | null;
  previewKey: string | null;
  createdAt: Date;
  enhancementType: string;
}

/** Signs a blob key into an expiring URL. */
export type SignKey = (key: string) => string;

export interface ImageView {
  imageId: string;
  status: ImageStatus;
  isLocked: boolean;
  originalUrl: string;
  processedUrl: string;
  previewUrl: string;
  imageUrl: string;
  createdAt: Date;
  enhancementType: string;
}

export function imageView(image: ImageRecord, sign: SignKey): ImageView {
  const done = image.status === 'completed';
  const processedUrl = done && !image.isLocked && image.resultKey ? sign(image.resultKey) : '';
  const previewUrl = done && image.previewKey ? sign(image.previewKey) : '';
  return {
    imageId: image.imageId,
    status: image.status,
    isLocked: image.isLocked,
    originalUrl: sign(image.originalKey),
    processedUrl,
    previewUrl,
    imageUrl: processedUrl || previewUrl,
    createdAt: image.createdAt,
    enhancementType: image.enhancementType,
  };
}

export type AnonymousStatus = 'processing' | 'pending_payment' | 'completed' | 'failed';

/** A guest's try: ready but locked is "pending payment"; paid (or claimed) is "completed". */
export function anonymousView(image: ImageRecord, sign: SignKey) {
  const view = imageView(image, sign);
  const status: AnonymousStatus =
    image.status === 'completed' ? (image.isLocked ? 'pending_payment' : 'completed') : image.status;
  return {
    enhancementId: image.imageId,
    status,
    isPaid: !image.isLocked,
    originalUrl: view.originalUrl,
    processedUrl: view.processedUrl,
    previewUrl: view.previewUrl,
  };
}
