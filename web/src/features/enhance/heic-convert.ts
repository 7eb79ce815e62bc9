// HEIC/HEIF to JPEG in the browser: libheif compiled to WebAssembly (libheif-js, the decoder the
// image service already uses server-side). Its ~2 MB module is imported here on first use only, so
// nobody downloads it until they pick an iPhone photo (ADR 0702).
/** The spec's JPEG quality for converted photos. */
export const HEIC_JPEG_QUALITY = 0.9;

export async function convertHeicInBrowser(file: File): Promise<Blob | null> {
  const { default: loadLibheif } = await import('libheif-js/libheif-wasm/libheif-bundle.mjs');
  const lib = loadLibheif();
  await lib.ready;
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(new Uint8Array(await file.arrayBuffer()));
  try {
    const image = images[0];
    if (!image) throw new Error('The HEIC file holds no image');
    const width = image.get_width();
    const height = image.get_height();
    const rgba = await new Promise<Uint8ClampedArray>((resolve, reject) =>
      image.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, (result) =>
        result ? resolve(result.data) : reject(new Error('libheif could not decode the image')),
      ),
    );
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas in this browser');
    context.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', HEIC_JPEG_QUALITY));
  } finally {
    // Every decoded image lives in the WebAssembly heap until freed.
    for (const image of images) image.free();
    decoder.decoder.delete();
  }
}
