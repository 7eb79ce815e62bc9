import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Dropzone } from '../components/Dropzone';
import { errorToast } from '../components/toast/toast-store';
import { INVALID_FILE, isImageFile } from '../features/enhance/ImagePicker';

/** The alternate landing page: a drop box that only greets the photo, and the way to sign up. */
export default function FuturisticPage() {
  const [file, setFile] = useState<File | null>(null);

  const accept = (f: File | undefined) => {
    if (!f) return;
    if (!isImageFile(f)) {
      errorToast('Invalid File', INVALID_FILE);
      return;
    }
    setFile(f);
  };

  return (
    <div className="page futuristic">
      <h1>Your products, studio-perfect</h1>
      <p className="lead">Drop a photo and see it become a flat-lay ready for any marketplace.</p>
      <Dropzone large onFiles={(files) => accept(files[0])}>
        {(dragging) => (
          <>
            <span>{dragging ? 'Drop your image here' : 'Drop your photo or click to choose'}</span>
            <span className="small muted">JPG, PNG, HEIC, up to 10MB</span>
            {file && <span className="small">{file.name}</span>}
          </>
        )}
      </Dropzone>
      <Link to="/auth" className="button button--primary button--large">
        Start Free Trial
      </Link>
    </div>
  );
}
