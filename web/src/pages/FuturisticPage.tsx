import { type DragEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { UploadIcon } from '../components/icons';
import { errorToast } from '../components/toast/toast-store';
import { isImageFile } from '../features/enhance/ImagePicker';

/** The alternate landing page: a drop box that only greets the photo, and the way to sign up. */
export default function FuturisticPage() {
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);

  const accept = (f: File | undefined) => {
    if (!f) return;
    if (!isImageFile(f)) {
      errorToast('Invalid File', 'Please drop an image file (JPG, PNG, or HEIC).');
      return;
    }
    setFile(f);
  };

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    accept(e.dataTransfer.files[0]);
  };

  return (
    <div className="page futuristic">
      <h1>Your products, studio-perfect</h1>
      <p className="lead">Drop a photo and see it become a flat-lay ready for any marketplace.</p>
      <label
        className={`dropzone dropzone--large${dragging ? ' dropzone--active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <UploadIcon />
        <span>{dragging ? 'Drop your image here' : 'Drop your photo or click to choose'}</span>
        <span className="small muted">JPG, PNG, HEIC, up to 10MB</span>
        {file && <span className="small">{file.name}</span>}
        <input
          type="file"
          className="visually-hidden"
          accept="image/*,.heic"
          onChange={(e) => accept(e.target.files?.[0])}
        />
      </label>
      <Link to="/auth" className="button button--primary button--large">
        Start Free Trial
      </Link>
    </div>
  );
}
