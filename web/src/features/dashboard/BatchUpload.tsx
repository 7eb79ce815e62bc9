import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { fetchImageStatus } from '../../api/endpoints';
import { generationErrorText } from '../../api/generation-errors';
import { reportStatus } from '../../api/http';
import { queryKeys } from '../../api/queries';
import { uploadForm } from '../../api/upload';
import { useAuth } from '../../auth/auth-context';
import { Dropzone } from '../../components/Dropzone';
import { DASHBOARD_POLL, HERO_POLL } from '../../lib/constants';
import {
  heroEnhancementField,
  loadEnhancementType,
  type MainType,
  mainTypes,
  withMainType,
} from '../../lib/enhancement-type';
import { isImageFile } from '../enhance/ImagePicker';
import { prepareUpload } from '../enhance/prepare-file';
import { type BatchAnswer, type BatchRow, BATCH_MAX_FILES, fileShares, rowFromStatus, rowsFromAnswer } from './batch';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Several photos at once (POST /api/images/batch): picked or dropped, sent in one request with a
 * progress bar per file, then each result shown as its own generation completes. The server decides
 * everything else: the 20-file limit, sizes and types (its refusal is shown as it words it) and the
 * balance (photos past it come back locked, to unlock in Recent images).
 */
export function BatchUpload() {
  const { setTokenBalance } = useAuth();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [type, setType] = useState<MainType>(() => loadEnhancementType().type);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const update = (key: string, next: BatchRow) => setRows((all) => all.map((r) => (r.key === key ? next : r)));

  /** Looks at every processing image once a second until each has its result (or the wait ends). */
  const follow = async (taken: BatchRow[]) => {
    // A batch queues behind itself on one engine, so the wait is the hero's five minutes, not the
    // single dashboard upload's 30 tries; the look stays once a second.
    const deadline = Date.now() + HERO_POLL.timeoutMs;
    let pending = taken.filter((r): r is Extract<BatchRow, { phase: 'processing' }> => r.phase === 'processing');
    while (pending.length > 0 && mounted.current) {
      const still: typeof pending = [];
      for (const row of pending) {
        try {
          const next = rowFromStatus(row, await fetchImageStatus(row.imageId));
          if (next) update(row.key, next);
          else still.push(row);
        } catch {
          still.push(row);
        }
      }
      if (still.length < pending.length) {
        void queryClient.invalidateQueries({ queryKey: ['/api/images/'] });
        void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
      }
      pending = still;
      if (pending.length === 0) break;
      if (Date.now() + DASHBOARD_POLL.intervalMs > deadline) {
        for (const row of pending) update(row.key, { ...row, phase: 'failed', message: 'Generation timed out' });
        break;
      }
      await wait(DASHBOARD_POLL.intervalMs);
    }
  };

  const send = async (picked: File[]) => {
    setRefusal(null);
    const files: File[] = [];
    for (const f of picked) {
      const ready = await prepareUpload(f);
      if (ready) files.push(ready);
    }
    if (files.length === 0) return;
    const start: BatchRow[] = files.map((f, i) => ({
      key: `${Date.now()}-${i}`,
      name: f.name,
      size: f.size,
      phase: 'uploading',
      percent: 0,
    }));
    setRows(start);
    setBusy(true);
    const form = new FormData();
    form.append('enhancement_type', heroEnhancementField(withMainType(type)));
    for (const f of files) form.append('files', f);
    try {
      const answer = await uploadForm('/images/batch', form, {
        withToken: true,
        onProgress: (_, { loaded, total }) => {
          const shares = fileShares(
            files.map((f) => f.size),
            loaded,
            total,
          );
          setRows((all) =>
            all.map((r, i) => (r.phase === 'uploading' ? { ...r, percent: shares[i] ?? r.percent } : r)),
          );
        },
      });
      if (answer.status < 200 || answer.status >= 300) {
        if (answer.status === 401) reportStatus(401, true);
        setRefusal(generationErrorText(answer, 'dashboard'));
        setRows([]);
        return;
      }
      const body = JSON.parse(answer.text) as BatchAnswer;
      if (typeof body.newBalance === 'number') setTokenBalance(body.newBalance);
      const taken = rowsFromAnswer(start, body);
      setRows(taken);
      void queryClient.invalidateQueries({ queryKey: ['/api/images/'] });
      await follow(taken);
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : 'Upload failed. Please try again.');
      setRows([]);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
    }
  };

  const pick = (files: File[]) => {
    const picked = files.filter(isImageFile);
    if (picked.length > 0 && !busy) void send(picked);
  };

  return (
    <section className="card batch" aria-labelledby="batch-title">
      <h2 id="batch-title">Batch upload</h2>
      <p className="muted small">
        Up to {BATCH_MAX_FILES} photos at once, 100 tokens each; photos past your balance come back locked.
      </p>
      <label className="field batch__type">
        <span>Type for these photos</span>
        <select value={type} onChange={(e) => setType(e.target.value as MainType)} disabled={busy}>
          {mainTypes.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <Dropzone multiple disabled={busy} label="Photos for a batch" onFiles={pick}>
        {(dragging) => (
          <span>
            {busy ? 'Uploading...' : dragging ? 'Drop your photos here' : 'Choose photos or drag & drop several'}
          </span>
        )}
      </Dropzone>
      {refusal && (
        <p role="alert" className="batch__refusal">
          {refusal}
        </p>
      )}
      {rows.length > 0 && (
        <ul className="batch__list" aria-label="Batch progress">
          {rows.map((row) => (
            <li key={row.key} className="batch__row" data-phase={row.phase}>
              <span className="batch__name small">{row.name}</span>
              <BatchRowState row={row} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The file's upload bar (full once sent), then what became of it. */
function BatchRowState({ row }: { row: BatchRow }) {
  if (row.phase === 'failed') return <span className="small batch__refusal">{row.message}</span>;
  const bar = (
    <progress
      className="batch__bar"
      max={100}
      value={row.phase === 'uploading' ? row.percent : 100}
      aria-label={`Upload of ${row.name}`}
    />
  );
  if (row.phase === 'uploading') return bar;
  if (row.phase === 'processing')
    return (
      <>
        {bar}
        <span className="small muted">Processing...</span>
      </>
    );
  if (row.phase === 'done')
    return (
      <>
        {bar}
        <a href={row.resultUrl} target="_blank" rel="noreferrer" className="batch__result">
          <img src={row.resultUrl} alt={`Result of ${row.name}`} width={64} height={64} />
          <span className="small">Ready</span>
        </a>
      </>
    );
  return (
    <>
      {bar}
      <span className="batch__result">
        {row.previewUrl && <img src={row.previewUrl} alt={`Locked preview of ${row.name}`} width={64} height={64} />}
        <span className="small muted">Locked: unlock it in Recent images</span>
      </span>
    </>
  );
}
