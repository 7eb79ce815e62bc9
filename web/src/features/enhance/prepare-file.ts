import { isHeicFile, jpegNameFor } from '../../lib/heic';
import { errorToast, toast } from '../../components/toast/toast-store';

/**
 * Turns HEIC into JPEG in the browser. An answer of null (no canvas, say) sends the original
 * HEIC as it is: the server's engine decodes HEIC itself.
 */
export type HeicConverter = (file: File) => Promise<Blob | null>;

export const noBrowserConversion: HeicConverter = async () => null;

/** The WASM converter, in its own chunk: fetched the first time someone picks a HEIC photo. */
export const convertInBrowser: HeicConverter = async (file) =>
  (await import('./heic-convert')).convertHeicInBrowser(file);

/** The spec words a failed conversion differently on the hero and on the dashboard. */
export const HEIC_FAILURE = {
  hero: { title: 'Conversion Failed', text: 'Failed to convert HEIC image. Please try another format.' },
  dashboard: {
    title: 'File Processing Error',
    text: 'Failed to convert HEIC file. Please try a different image format.',
  },
};

/** The file to upload: a JPEG copy of a HEIC photo when the browser can make one, else the file itself. */
export async function prepareUpload(
  file: File,
  convert: HeicConverter = convertInBrowser,
  failure: { title: string; text: string } = HEIC_FAILURE.hero,
): Promise<File | null> {
  if (!(await isHeicFile(file))) return file;
  const progress = toast({ title: 'Converting HEIC...' });
  try {
    const jpeg = await convert(file);
    if (!jpeg) {
      progress.dismiss();
      return file;
    }
    toast({ title: 'HEIC Converted' });
    return new File([jpeg], jpegNameFor(file.name), { type: 'image/jpeg' });
  } catch (error) {
    console.error('HEIC conversion failed:', error);
    errorToast(failure.title, failure.text);
    return null;
  }
}
