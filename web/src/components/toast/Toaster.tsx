import * as RadixToast from '@radix-ui/react-toast';
import { dismissToast, useToasts } from './toast-store';

export const TOAST_DURATION_MS = 5000;

/** The notification area: 5 s per toast, swipe right (50 px) to dismiss, F8 focuses it. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          className={`toast${t.variant === 'destructive' ? ' toast--destructive' : ''}`}
        >
          <RadixToast.Title className="toast__title">{t.title}</RadixToast.Title>
          {t.description && (
            <RadixToast.Description className="toast__description">{t.description}</RadixToast.Description>
          )}
          <RadixToast.Close className="toast__close" aria-label="Close">
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" hotkey={['F8']} label="Notifications ({hotkey})" />
    </RadixToast.Provider>
  );
}
