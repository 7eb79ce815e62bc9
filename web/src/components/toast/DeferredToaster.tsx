import { lazy, Suspense } from 'react';
import { useToasts } from './toast-store';

// Radix's toast (with its collection, layers and portal: about 8 KB gzipped) is not in the initial
// JavaScript: it loads with the first toast, which it then shows (ADR 0715).
const Toaster = lazy(() => import('./Toaster').then((m) => ({ default: m.Toaster })));

/** The notification area, mounted from the first toast on (until then there is nothing to show or focus). */
export function DeferredToaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
