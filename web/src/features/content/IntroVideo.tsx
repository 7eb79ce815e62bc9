import { useEffect, useRef, useState } from 'react';
import { afterLoad } from '../../lib/after-load';

/** Remembered in this browser once the intro has been shown: it plays on the first visit only. */
export const INTRO_SEEN_KEY = 'flatlay.intro-seen';

const seen = () => {
  try {
    return localStorage.getItem(INTRO_SEEN_KEY) !== null;
  } catch {
    return true; // storage refused (private mode): never risk showing it on every visit
  }
};

/**
 * The first visit's intro (the specification's): the product's own showcase pairs, each casual photo
 * fading into its flat-lay (scripts/media/intro-video.sh makes it, 100 KB). An overlay above the page,
 * so it shifts nothing; shown after the page has loaded; once per browser; Skip, Escape or its end
 * closes it. Not shown to visitors who ask for reduced motion.
 */
export function IntroVideo() {
  const [open, setOpen] = useState(false);
  const skip = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (seen() || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    return afterLoad(() => {
      try {
        localStorage.setItem(INTRO_SEEN_KEY, new Date().toISOString());
      } catch {
        // Shown once more on the next visit: no harm.
      }
      setOpen(true);
    });
  }, []);

  useEffect(() => {
    if (!open) return;
    skip.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!open) return null;
  return (
    <div className="intro" role="dialog" aria-modal="true" aria-label="Flatlay in 15 seconds">
      <div className="intro__frame">
        <video
          className="intro__video"
          src="/intro/intro.webm"
          poster="/intro/intro-poster.webp"
          width={540}
          height={540}
          preload="none"
          autoPlay
          muted
          playsInline
          onEnded={() => setOpen(false)}
        >
          {/* Captions on request: the pictures speak for themselves, and the words cover them. */}
          <track kind="captions" src="/intro/intro.vtt" srcLang="en" label="English" />
        </video>
        <button ref={skip} type="button" className="button intro__skip" onClick={() => setOpen(false)}>
          Skip
        </button>
      </div>
    </div>
  );
}
