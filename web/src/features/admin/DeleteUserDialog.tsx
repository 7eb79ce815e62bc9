import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorToast, toast } from '../../components/toast/toast-store';
import { type AdminUser, deleteUser } from './admin-api';
import { adminKeys } from './admin-queries';
import { rememberDeleted } from './pending-changes';

/** Delete User Account: asks once more, then deletes the account and its personal data. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: deleteUser,
    onSuccess: (answer, email) => {
      rememberDeleted(email);
      toast({ title: 'Success', description: answer.message || 'User account deleted successfully' });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      remove.reset();
      onClose();
    },
    onError: (error) =>
      errorToast('Error', error instanceof Error && error.message ? error.message : 'Failed to delete user account'),
  });

  return (
    <Dialog.Root
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title>Delete User Account</Dialog.Title>
          <Dialog.Description>
            Are you sure you want to delete <strong>{user?.email}</strong>? Their account, images and personal data are
            removed. This cannot be undone.
          </Dialog.Description>
          <div className="dialog__actions">
            <Dialog.Close className="button button--ghost">Cancel</Dialog.Close>
            <button
              type="button"
              className="button button--danger"
              disabled={remove.isPending}
              onClick={() => user && remove.mutate(user.email)}
            >
              {remove.isPending ? 'Deleting…' : 'Delete Account'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
