import { Dropzone } from '../../components/Dropzone';
import { errorToast } from '../../components/toast/toast-store';
import { isHeicByName } from '../../lib/heic';

export const INVALID_FILE = 'Please choose an image file (JPG, PNG, or HEIC).';

export const isImageFile = (f: File) => f.type.startsWith('image/') || isHeicByName(f.name, f.type);

/** Choose a photo with the file picker (or the camera on a phone), or drop one on the box. */
export function ImagePicker({ onFile, fileName }: { onFile: (file: File) => void; fileName?: string }) {
  return (
    <Dropzone
      onFiles={(files) => {
        const file = files.find(isImageFile);
        if (file) onFile(file);
        else errorToast('Invalid File', INVALID_FILE);
      }}
    >
      {(dragging) => (
        <>
          {dragging ? (
            <span>Drop your image here</span>
          ) : (
            <>
              <span className="only-desktop">Choose / Take image or drag &amp; drop</span>
              <span className="only-mobile">Choose image file</span>
            </>
          )}
          {fileName && <span className="small muted dropzone__file">{fileName}</span>}
        </>
      )}
    </Dropzone>
  );
}
