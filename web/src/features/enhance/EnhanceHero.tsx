import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useReducer, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { loginRequired, needsLogin } from '../../api/generation-errors';
import { queryKeys } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { rememberTokenUnlock } from '../../auth/pending-unlock';
import { errorToast, toast } from '../../components/toast/toast-store';
import { TOKENS_PER_IMAGE } from '../../lib/constants';
import {
  dashboardEnhancementField,
  type EnhancementType,
  heroEnhancementField,
  loadEnhancementType,
  type MainType,
  saveEnhancementType,
  withMainType,
} from '../../lib/enhancement-type';
import type { GenerationOutcome } from './hero-generation';
import { ImagePicker } from './ImagePicker';
import {
  confirmGuestUnlock,
  forgetPaidTry,
  paidResultLink,
  readPaidTry,
  rememberPaidTry,
  sleepUnlessAborted,
} from './paid-unlock';
import { PreviewPanel } from './PreviewPanel';
import { initialPreview, previewReducer } from './preview-state';
import { trackPixel } from '../../lib/pixels';

// Not in the home page's initial JavaScript (ADR 0715): what the hero does once the visitor acts,
// and the type chooser (Radix's dialog), both fetched as soon as a photo is picked.
const actions = () => import('./hero-actions');
const TypeChooserDialog = lazy(() => import('./TypeChooserDialog').then((m) => ({ default: m.TypeChooserDialog })));

/** On the dashboard the type comes from its chooser card (no dialog), with the sub-type for subscribers. */
export interface DashboardChoice {
  value: EnhancementType;
  subscriber: boolean;
  /** A subscriber's advanced-prompting instruction ('' for none). */
  instruction?: string;
}

/** The hero: e-mail (guests), photo, type, then the enhancement and its preview. */
export function EnhanceHero({ dashboard }: { dashboard?: DashboardChoice } = {}) {
  const { authUser, profile, setTokenBalance } = useAuth();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, dispatch] = useReducer(previewReducer, initialPreview);
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);
  const objectUrl = useRef<string | null>(null);
  const [query, setQuery] = useSearchParams();
  const navigate = useNavigate();

  useEffect(() => () => void (objectUrl.current && URL.revokeObjectURL(objectUrl.current)), []);

  // Back from the hosted payment page (or opening the link to a paid try): the id is kept in session
  // storage until the try is unlocked, and asked about with back-off while the payment is confirmed.
  const paidId = query.get('payment') === 'success' ? query.get('enhancement_id') : null;
  useEffect(() => {
    if (paidId) {
      rememberPaidTry(paidId);
      setQuery({}, { replace: true });
      return;
    }
    const id = readPaidTry();
    if (!id) return;
    const laterUrl = paidResultLink(window.location.origin, id);
    const stop = new AbortController();
    dispatch({ type: 'confirming', status: 'pending_payment', laterUrl });
    void actions()
      .then(({ askGuestUnlock, trackGuestUnlock }) =>
        confirmGuestUnlock(id, {
          unlock: askGuestUnlock,
          sleep: (ms) => sleepUnlessAborted(ms, stop.signal),
          onPending: (status) => dispatch({ type: 'confirming', status, laterUrl }),
          signal: stop.signal,
        }).then((outcome) => ({ outcome, trackGuestUnlock })),
      )
      .then(({ outcome, trackGuestUnlock }) => {
        if (outcome.kind === 'aborted') return;
        if (outcome.kind === 'unlocked') {
          forgetPaidTry();
          void trackGuestUnlock(id);
          dispatch({ type: 'result', resultUrl: outcome.url, laterUrl });
          toast({ title: 'Payment Confirmed', description: 'Your full-resolution image is ready.' });
          return;
        }
        if (outcome.forget) forgetPaidTry();
        dispatch({ type: 'reset' });
        errorToast('Unlock Failed', outcome.message);
      });
    return () => stop.abort();
  }, [paidId, setQuery]);

  const choose = (picked: File) => {
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = URL.createObjectURL(picked);
    setFile(picked);
    dispatch({ type: 'select', imageUrl: objectUrl.current });
    // Fetched now, while the visitor reads the preview: ready by the time they press Enhance.
    void actions();
    if (!dashboard) void import('./TypeChooserDialog');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!authUser && !email.includes('@')) {
      errorToast('Invalid Email', 'Please enter a valid email address.');
      return;
    }
    if (!file) {
      errorToast('No File Selected', 'Please select an image to enhance.');
      return;
    }
    const balance = profile?.tokenBalance ?? 0;
    if (authUser && !profile?.isUnlimited && balance < TOKENS_PER_IMAGE) {
      errorToast(
        'Insufficient Tokens',
        `You need ${TOKENS_PER_IMAGE} tokens to enhance an image. You have ${balance} tokens. Please upgrade your account or purchase tokens.`,
      );
      return;
    }
    if (!authUser) trackPixel('Lead');
    if (dashboard) void run(dashboardEnhancementField(dashboard.value, dashboard.subscriber));
    else setChoosing(true);
  };

  const show = (outcome: GenerationOutcome) => {
    if (outcome.kind === 'result') {
      dispatch({ type: 'result', resultUrl: outcome.resultUrl });
      toast({ title: 'Enhancement Complete!', description: 'Your image is ready.' });
    } else if (outcome.kind === 'locked') dispatch({ type: 'locked', ...outcome });
    else dispatch({ type: 'guest-locked', ...outcome });
    if ('newBalance' in outcome && typeof outcome.newBalance === 'number') setTokenBalance(outcome.newBalance);
  };

  const enhance = (type: MainType) => {
    setChoosing(false);
    const chosen = withMainType(type);
    saveEnhancementType(chosen);
    void run(heroEnhancementField(chosen));
  };

  const run = async (field: string) => {
    if (!file) return;
    setBusy(true);
    try {
      const { DASHBOARD_FLOW, HEIC_FAILURE, HERO_FLOW, generateAsGuest, generateSignedIn, prepareUpload } =
        await actions();
      const upload = await prepareUpload(file, undefined, dashboard ? HEIC_FAILURE.dashboard : HEIC_FAILURE.hero);
      if (!upload) return;
      dispatch({ type: 'start' });
      const progress = (percent: number) => dispatch({ type: 'upload-progress', percent });
      const flow = dashboard
        ? {
            ...DASHBOARD_FLOW,
            onStarted: () => toast({ title: 'Enhancement Started', description: 'Your image is being processed.' }),
          }
        : HERO_FLOW;
      show(
        authUser
          ? await generateSignedIn(upload, field, progress, flow, dashboard?.instruction)
          : await generateAsGuest(upload, email.trim(), field, progress),
      );
    } catch (error) {
      dispatch({ type: 'failed' });
      const message = error instanceof Error ? error.message : '';
      const status = (error as { status?: number }).status;
      if (needsLogin(message, status)) errorToast(loginRequired.title, loginRequired.description);
      else errorToast('Enhancement Failed', message || 'Failed to enhance image. Please try again.');
    } finally {
      setBusy(false);
      if (authUser) void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
    }
  };

  const payAsGuest = async (enhancementId: string) => {
    dispatch({ type: 'paying', paying: true });
    const { payToUnlockGuest } = await actions();
    if (!(await payToUnlockGuest(enhancementId))) dispatch({ type: 'paying', paying: false });
  };

  return (
    <div className="hero__workspace">
      <form className="hero__form" onSubmit={submit} noValidate>
        {!authUser && (
          <label className="field">
            <span className="visually-hidden">Your email</span>
            <input
              type="email"
              autoComplete="email"
              placeholder="Your email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
        )}
        <ImagePicker onFile={choose} fileName={file?.name} />
        <button type="submit" className="button button--primary button--block button--large" disabled={busy}>
          {busy ? 'Enhancing...' : 'Enhance Image'}
        </button>
      </form>
      <PreviewPanel
        state={preview}
        onDownload={(url) => void actions().then((a) => a.downloadResult(url))}
        onPayToUnlock={(id) => void payAsGuest(id)}
        onUnlock={(id) => void actions().then((a) => a.unlockByPayment(id))}
        onUnlockWithTokens={(id) => {
          // Kept under pending_token_unlock_request: the sign-in (or sign-up) unlocks it (auth/pending-unlock.ts).
          rememberTokenUnlock(id);
          navigate('/auth');
        }}
      />
      {choosing && (
        <Suspense fallback={null}>
          <TypeChooserDialog open onOpenChange={setChoosing} onChoose={enhance} initial={loadEnhancementType().type} />
        </Suspense>
      )}
    </div>
  );
}
