import * as Dialog from '@radix-ui/react-dialog';

/** Asks before cancelling: the plan stays until the end of the paid period. */
export function CancelSubscriptionDialog({
  open,
  endsOn,
  busy,
  onConfirm,
  onOpenChange,
}: {
  open: boolean;
  endsOn: string;
  busy: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title>Cancel Subscription?</Dialog.Title>
          <Dialog.Description>
            Your plan stays active until {endsOn}; it will not renew after that. Tokens you hold are kept. Subscription
            fees are non-refundable.
          </Dialog.Description>
          <div className="dialog__actions">
            <Dialog.Close className="button button--ghost">Keep Subscription</Dialog.Close>
            <button type="button" className="button button--danger" disabled={busy} onClick={onConfirm}>
              {busy ? 'Cancelling…' : 'Cancel Subscription'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
