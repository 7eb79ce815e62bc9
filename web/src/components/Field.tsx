import type { InputHTMLAttributes } from 'react';

/** A labelled input of the app's forms: the visible label names the input (for people, screen readers and tests). */
export function Field({
  label,
  onValue,
  ...input
}: { label: string; value: string; onValue: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange'
>) {
  return (
    <label className="field">
      <span>{label}</span>
      <input {...input} onChange={(e) => onValue(e.target.value)} />
    </label>
  );
}

/** A form's refusal, read out when it appears; nothing when there is none. */
export function FormError({ message }: { message: string }) {
  if (!message) return null;
  return (
    <p className="error-text" role="alert">
      {message}
    </p>
  );
}
