// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'vitest';
import { ApiError } from '../api/http';
import { readStored, storageKeys } from '../lib/storage';
import { pendingUnlockToast, rememberTokenUnlock, retryPendingTokenUnlock } from './pending-unlock';

const ID = '7b0c5a3e-5a1f-4a53-9d58-2a7c1e0f4b11';
const refuse = (status: number, message: string) => async () => {
  throw new ApiError(status, message);
};

describe("a guest's unlock with tokens, waiting for the sign-in", () => {
  beforeEach(() => localStorage.clear());

  it('stores the enhancement id under pending_token_unlock_request and unlocks it after sign-in', async () => {
    rememberTokenUnlock(ID);
    assert.equal(localStorage.getItem('pending_token_unlock_request'), ID);
    const asked: string[] = [];
    const outcome = await retryPendingTokenUnlock(async (id) => asked.push(id));
    assert.deepEqual([outcome, asked], ['unlocked', [ID]]);
    assert.equal(readStored(storageKeys.pendingTokenUnlock), null);
    assert.equal(pendingUnlockToast(outcome)?.title, 'Image Unlocked');
  });

  it("402: 'Insufficient Tokens', and the id is kept for a sign-in after buying tokens", async () => {
    rememberTokenUnlock(ID);
    const outcome = await retryPendingTokenUnlock(refuse(402, 'Insufficient tokens'));
    assert.equal(outcome, 'insufficient');
    assert.equal(readStored(storageKeys.pendingTokenUnlock), ID);
    assert.deepEqual(pendingUnlockToast(outcome), {
      title: 'Insufficient Tokens',
      description: "You don't have enough tokens to unlock this image.",
      variant: 'destructive',
    });
  });

  it("404: 'Image Not Found', and the id is forgotten", async () => {
    rememberTokenUnlock(ID);
    const outcome = await retryPendingTokenUnlock(refuse(404, 'Image not found'));
    assert.equal(outcome, 'gone');
    assert.equal(readStored(storageKeys.pendingTokenUnlock), null);
    assert.equal(pendingUnlockToast(outcome)?.title, 'Image Not Found');
  });

  it("any other failure: 'Unlock Failed', kept for the next sign-in; nothing stored: nothing said", async () => {
    rememberTokenUnlock(ID);
    const outcome = await retryPendingTokenUnlock(refuse(500, 'boom'));
    assert.equal(outcome, 'kept');
    assert.equal(readStored(storageKeys.pendingTokenUnlock), ID);
    assert.equal(pendingUnlockToast(outcome)?.title, 'Unlock Failed');
    localStorage.clear();
    assert.equal(await retryPendingTokenUnlock(refuse(500, 'boom')), 'none');
    assert.equal(pendingUnlockToast('none'), null);
  });
});
