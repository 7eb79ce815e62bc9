import { type DragEvent, useId, useState } from 'react';
import { UploadIcon } from '../../components/icons';
import { isHeicByName } from '../../lib/heic';

export const isImageFile = (f: File) => f.type.startsWith('image/') || isHeicByName(f.name, f.type);

/** Choose a photo with the file picker (or the camera on a phone), or drop one on the box. */
export function ImagePicker({ onFile, fileName }: { onFile: (file: File) => void; fileName?: string }) {
  const [dragging, setDragging] = useState(false);
  const inputId = useId();

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && isImageFile(file)) onFile(file);
  };

  return (
    <label
      htmlFor={inputId}
      className={`dropzone${dragging ? ' dropzone--active' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <UploadIcon />
      {dragging ? (
        <span>Drop your image here</span>
      ) : (
        <>
          <span className="only-desktop">Choose / Take image or drag &amp; drop</span>
          <span className="only-mobile">Choose image file</span>
        </>
      )}
      {fileName && <span className="small muted dropzone__file">{fileName}</span>}
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/*,.heic,.heif"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
    </label>
  );
}
