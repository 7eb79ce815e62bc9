// Deleting one's own account: what the person must type to show they mean it.

export const DELETION_WORD = 'DELETE';

/** Undefined when `typed` confirms the deletion; otherwise what to do. */
export function deletionConfirmationProblem(typed: string): string | undefined {
  return typed.trim() === DELETION_WORD
    ? undefined
    : `Type ${DELETION_WORD} to confirm that your account should be deleted`;
}
