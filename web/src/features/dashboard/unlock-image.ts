import { actionKeyHeader } from '../../api/action-key';
import { answerOf, api } from '../../api/client';

/** POST /api/images/unlock-with-tokens/{id}: 100 tokens (free on an unlimited plan, or for a repeat). */
export const unlockWithTokens = (id: string) =>
  answerOf(api.POST('/images/unlock-with-tokens/{id}', { params: { path: { id }, header: actionKeyHeader() } }));
