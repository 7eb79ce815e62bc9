import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorToast, toast } from '../../components/toast/toast-store';
import { type AdminUser, adjustTokens } from './admin-api';
import { adminKeys } from './admin-queries';
import { rememberBalance } from './pending-changes';
import { formatCount } from '../../lib/format-count';

type Action = 'add' | 'deduct';

/** The amount as typed, parsed as an integer; null when it is not a whole number above 0. */
export function parseAmount(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const amount = Number.parseInt(text, 10);
  return amount > 0 ? amount : null;
}

/** Manage Credits: add or deduct tokens for one user (a note instead of the form for unlimited users). */
export function ManageCreditsDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const [action, setAction] = useState<Action>('add');
  const [amountText, setAmountText] = useState('');
  const queryClient = useQueryClient();
  const amount = parseAmount(amountText);
  const adjust = useMutation({
    mutationFn: adjustTokens,
    onSuccess: (answer, sent) => {
      rememberBalance(sent.user_email, answer.token_balance);
      toast({ title: 'Success', description: answer.message || 'User tokens updated successfully' });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      close();
    },
    onError: (error) =>
      errorToast('Error', error instanceof Error && error.message ? error.message : 'Failed to update user tokens'),
  });

  function close() {
    setAmountText('');
    setAction('add');
    adjust.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!user || amount === null) return;
    adjust.mutate({ user_email: user.email, tokens: amount, action });
  }

  return (
    <Dialog.Root open={user !== null} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Manage Credits</Dialog.Title>
          <Dialog.Description className="muted">
            {user ? `${user.name} (${user.email}) · current balance ${formatCount(user.token_balance)} tokens` : ''}
          </Dialog.Description>
          {user?.is_unlimited ? (
            <>
              <p className="notice">
                This user is on the Unlimited plan: their images use no tokens, so there are no credits to add or
                deduct.
              </p>
              <div className="dialog__actions">
                <button type="button" className="button button--primary" onClick={close}>
                  Close
                </button>
              </div>
            </>
          ) : (
            <form className="credits-form" onSubmit={submit}>
              <fieldset className="plain-fieldset">
                <legend className="field-legend">Action</legend>
                <div className="segmented">
                  {(['add', 'deduct'] as const).map((a) => (
                    <label key={a} className={`segmented__option${action === a ? ' segmented__option--active' : ''}`}>
                      <input
                        type="radio"
                        name="credit-action"
                        value={a}
                        checked={action === a}
                        onChange={() => setAction(a)}
                        className="visually-hidden"
                      />
                      {a === 'add' ? 'Add Credits' : 'Deduct Credits'}
                    </label>
                  ))}
                </div>
              </fieldset>
              <label className="field">
                Amount (tokens)
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  required
                  value={amountText}
                  onChange={(e) => setAmountText(e.target.value)}
                />
              </label>
              {action === 'deduct' && (
                <p className="small muted">A deduction stops at 0: the balance never goes below zero.</p>
              )}
              <div className="dialog__actions">
                <button type="button" className="button button--ghost" onClick={close}>
                  Cancel
                </button>
                <button type="submit" className="button button--primary" disabled={amount === null || adjust.isPending}>
                  {adjust.isPending ? 'Updating…' : action === 'add' ? 'Add Credits' : 'Deduct Credits'}
                </button>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
