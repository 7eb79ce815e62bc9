import { describe, expect, it } from 'vitest';
import { deletionConfirmationProblem } from './account-deletion.js';

describe("deleting one's own account", () => {
  it('needs DELETE typed (spaces around it are fine, anything else is not)', () => {
    expect(deletionConfirmationProblem('DELETE')).toBeUndefined();
    expect(deletionConfirmationProblem('  DELETE ')).toBeUndefined();
    for (const typed of ['', 'delete', 'DELET', 'yes'])
      expect(deletionConfirmationProblem(typed)).toMatch(/^Type DELETE/);
  });
});
