// The operator settings API (issue "analytics and operations"): administrators only, so every
// call carries the admin session. Not declared in the /api document yet: raw calls with the admin
// token until the routes land, then the typed client.
import { adminRequest } from '../admin/admin-api';

export type KeyStatus = 'active' | 'inactive' | 'invalid' | 'unknown';

export interface KeyStatusEntry {
  key: string;
  status: KeyStatus | string;
}

export const settingsKeys = {
  all: ['settings'] as const,
  status: ['settings', 'keys-status'] as const,
  config: ['settings', 'config'] as const,
};

export const fetchKeyStatus = (signal?: AbortSignal) =>
  adminRequest<KeyStatusEntry[] | { keys?: KeyStatusEntry[] }>('/api/settings/keys/status', { signal });

export const fetchSettingsConfig = (signal?: AbortSignal) => adminRequest<unknown>('/api/settings/config', { signal });

export const saveSettingsKeys = (values: Record<string, string>) =>
  adminRequest<{ message?: string }>('/api/settings/keys', { json: values });

export const testService = (service: string) =>
  adminRequest<{ success?: boolean; message?: string }>(`/api/settings/test/${encodeURIComponent(service)}`, {
    method: 'POST',
  });
