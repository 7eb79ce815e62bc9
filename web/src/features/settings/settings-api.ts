// The operator settings API: administrators only, so every call goes through the admin client
// (the admin session's token and rules).
import type { JsonAnswer } from '../../api/schema';
import { adminApi, dataOf } from '../admin/admin-api';

export type KeyStatusEntry = JsonAnswer<'getSettingsKeysStatus', 200>[number];
export type KeyStatus = KeyStatusEntry['status'];

export const settingsKeys = {
  all: ['settings'] as const,
  status: ['settings', 'keys-status'] as const,
  config: ['settings', 'config'] as const,
};

export const fetchKeyStatus = (signal?: AbortSignal) => dataOf(adminApi.GET('/settings/keys/status', { signal }));

export const fetchSettingsConfig = (signal?: AbortSignal) => dataOf(adminApi.GET('/settings/config', { signal }));

export const saveSettingsKeys = (values: Record<string, string>) =>
  dataOf(adminApi.POST('/settings/keys', { body: values }));

export const testService = (service: string) =>
  dataOf(adminApi.POST('/settings/test/{service}', { params: { path: { service } } }));
