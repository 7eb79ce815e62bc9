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

/** A new password: the browser may suggest one, and it is held to the server's 8 characters at least. */
export function NewPasswordField({
  label = 'New password',
  name = 'new-password',
  value,
  onValue,
}: {
  label?: string;
  name?: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <Field
      label={label}
      type="password"
      name={name}
      autoComplete="new-password"
      minLength={8}
      value={value}
      onValue={onValue}
    />
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
