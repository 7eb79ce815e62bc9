import { type ReactNode, useId, useState } from 'react';
import { UploadIcon } from './icons';

export interface DropzoneProps {
  /** The files picked or dropped (never empty); the caller decides which it takes. */
  onFiles: (files: File[]) => void;
  /** What the box says, given whether a drag is over it. */
  children: (dragging: boolean) => ReactNode;
  multiple?: boolean;
  disabled?: boolean;
  large?: boolean;
  /** The input's accessible name, where the box's own text does not name it well enough. */
  label?: string;
}

/**
 * The drop box of every upload: a label around a hidden file input (so a click, the keyboard and a
 * phone's camera all reach the picker), highlighted while a drag is over it. The input is emptied
 * after each pick, so choosing the same file again still counts.
 */
export function Dropzone({
  onFiles,
  children,
  multiple = false,
  disabled = false,
  large = false,
  label,
}: DropzoneProps) {
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const take = (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (files.length > 0 && !disabled) onFiles(files);
  };
  return (
    <label
      htmlFor={inputId}
      className={`dropzone${large ? ' dropzone--large' : ''}${dragging ? ' dropzone--active' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        take(e.dataTransfer.files);
      }}
    >
      <UploadIcon />
      {children(dragging)}
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        multiple={multiple}
        disabled={disabled}
        aria-label={label}
        accept="image/*,.heic,.heif"
        onChange={(e) => {
          take(e.target.files);
          e.target.value = '';
        }}
      />
    </label>
  );
}
