import { useState } from 'react';
import { messageOf, requestDataExport } from './account-care-api';
import { FormError } from '../../components/Field';

/** /account's export card: the person asks for their data; a link to a JSON archive arrives by e-mail (ADR 0403). */
export function ExportData() {
  const [done, setDone] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setError('');
    setBusy(true);
    try {
      setDone((await requestDataExport()).message);
    } catch (caught) {
      setError(messageOf(caught, 'Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="card" aria-labelledby="export-title">
      <h2 id="export-title">Export my data</h2>
      <p className="muted">
        Download a copy of your profile, your token history, your payments and your images (with links to their files)
        as one JSON file. We put it together in the background and e-mail you a link that works for 7 days.
      </p>
      {done ? (
        <p role="status">{done}</p>
      ) : (
        <>
          <FormError message={error} />
          <button type="button" className="button" onClick={start} disabled={busy}>
            {busy ? 'Asking…' : 'Export my data'}
          </button>
        </>
      )}
    </article>
  );
}
