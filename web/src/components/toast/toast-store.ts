// The app's toasts: one store, at most one toast held at a time (a new one replaces the last).
import { useStore } from '../../lib/hydrated';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

const TOAST_LIMIT = 1;
/** A dismissed toast stays mounted long enough for its closing animation; then it is removed. */
const REMOVE_DELAY_MS = 1_000_000;

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removals = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  toasts = next;
  for (const l of listeners) l();
}

function scheduleRemoval(id: number) {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, REMOVE_DELAY_MS),
  );
}

export function toast(input: ToastInput): { id: number; dismiss: () => void; update: (next: ToastInput) => void } {
  const id = nextId++;
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next) => emit(toasts.map((t) => (t.id === id ? { ...t, ...next } : t))),
  };
}

export function dismissToast(id?: number): void {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of toasts) if (!t.open) scheduleRemoval(t.id);
}

export function errorToast(title: string, description?: string) {
  return toast({ title, description, variant: 'destructive' });
}

/** Tests start from an empty store. */
export function resetToasts(): void {
  for (const timer of removals.values()) clearTimeout(timer);
  removals.clear();
  emit([]);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** A prerendered page holds no toast (ADR 0714): one raised before hydration shows right after it. */
const NONE: ToastItem[] = [];

export function useToasts(): ToastItem[] {
  return useStore(
    subscribe,
    () => toasts,
    () => NONE,
  );
}
