import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Spinner } from '../components/Spinner';
import { errorToast, toast } from '../components/toast/toast-store';
import { useAdminToken } from '../features/admin/admin-session';
import { AdminLoginDialog } from '../features/admin/AdminLoginDialog';
import {
  fetchKeyStatus,
  fetchSettingsConfig,
  type KeyStatus,
  saveSettingsKeys,
  settingsKeys,
  testService,
} from '../features/settings/settings-api';
import {
  changedKeys,
  isMasked,
  isProviderKey,
  keysOf,
  labelOf,
  normaliseConfig,
  normaliseStatus,
  serviceOf,
} from '../features/settings/settings-model';
import '../features/admin/admin.css';

type Tab = 'keys' | 'payments';

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

function StatusBadge({ status }: { status: KeyStatus }) {
  return <span className={`key-status key-status--${status}`}>{status}</span>;
}

function KeyField({
  name,
  value,
  status,
  onChange,
  onTest,
  testing,
}: {
  name: string;
  value: string;
  status: KeyStatus;
  onChange: (value: string) => void;
  onTest?: () => void;
  testing?: boolean;
}) {
  const id = `setting-${name}`;
  return (
    <div className="settings__key">
      <div className="field">
        <span className="settings__key-head">
          <label htmlFor={id}>{labelOf(name)}</label>
          <StatusBadge status={status} />
        </span>
        <input
          id={id}
          name={name}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={value}
          // A masked secret is selected whole on focus: typing replaces it, leaving it keeps it.
          onFocus={(e) => isMasked(e.target.value) && e.target.select()}
          onChange={(e) => onChange(e.target.value)}
        />
        {isMasked(value) && <span className="small muted">Saved and hidden; type a new value to replace it.</span>}
      </div>
      {onTest && (
        <button
          type="button"
          className="button button--outline"
          disabled={!value.trim() || testing}
          onClick={onTest}
          aria-label={`Test ${labelOf(name)}`}
        >
          {testing ? 'Testing…' : 'Test'}
        </button>
      )}
    </div>
  );
}

function AdministratorsOnly() {
  const [open, setOpen] = useState(false);
  return (
    <section className="page page--center">
      <p className="eyebrow">Settings</p>
      <h1>Settings are for administrators only</h1>
      <p className="muted">
        Service keys and payment configuration can only be viewed and changed with an administrator session.
      </p>
      <button type="button" className="button button--primary" onClick={() => setOpen(true)}>
        Administrator Sign In
      </button>
      <AdminLoginDialog open={open} onCancel={() => setOpen(false)} onSignedIn={() => setOpen(false)} />
    </section>
  );
}

/** /settings: the generative provider's key and the payment configuration (admin session only). */
export default function SettingsPage() {
  const token = useAdminToken();
  if (!token) return <AdministratorsOnly />;
  return <SettingsForm />;
}

function SettingsForm() {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('keys');
  const config = useQuery({ queryKey: settingsKeys.config, queryFn: ({ signal }) => fetchSettingsConfig(signal) });
  const status = useQuery({ queryKey: settingsKeys.status, queryFn: ({ signal }) => fetchKeyStatus(signal) });
  const saved = normaliseConfig(config.data);
  const statuses = normaliseStatus(status.data);
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const [testing, setTesting] = useState<string | null>(null);

  // The form starts from what the server holds, and again after each save.
  useEffect(() => {
    if (config.data !== undefined) setDraft(null);
  }, [config.data]);

  const { apiKeys, paymentKeys } = keysOf(saved, statuses);
  const values: Record<string, string> = {};
  for (const key of [...apiKeys, ...paymentKeys]) values[key] = draft?.[key] ?? saved[key] ?? '';
  const dirty = draft !== null && changedKeys(saved, values).length > 0;

  const save = useMutation({
    mutationFn: () => saveSettingsKeys(values),
    onSuccess: (answer) => {
      toast({ title: 'Settings saved', description: answer?.message || 'Your changes are in effect.' });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
    onError: (error) => errorToast('Failed to save API keys', messageOf(error, 'Please try again.')),
  });

  async function test(key: string) {
    setTesting(key);
    try {
      const answer = await testService(serviceOf(key));
      if (answer?.success === false) errorToast('Connection failed', answer.message || 'The service refused the key.');
      else toast({ title: 'Connection successful', description: answer?.message || `${labelOf(key)} works.` });
    } catch (error) {
      errorToast('Connection failed', messageOf(error, 'The service could not be reached.'));
    } finally {
      setTesting(null);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.status });
    }
  }

  const edit = (key: string, value: string) => setDraft((d) => ({ ...(d ?? {}), [key]: value }));

  if (config.isPending || status.isPending) return <Spinner label="Loading settings" />;
  if (config.isError)
    return (
      <section className="page page--center">
        <h1>Settings</h1>
        <p className="error-text">{messageOf(config.error, 'Failed to load the settings')}</p>
        <button type="button" className="button button--outline" onClick={() => void config.refetch()}>
          Retry
        </button>
      </section>
    );

  const tabs: { id: Tab; label: string }[] = [
    { id: 'keys', label: 'API Keys' },
    { id: 'payments', label: 'Payment Configuration' },
  ];

  return (
    <section className="page page--narrow settings">
      <h1>Settings</h1>
      <div className="tabs" role="tablist" aria-label="Settings sections">
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tabs__tab${tab === t.id ? ' tabs__tab--active' : ''}`}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') setTab(tab === 'keys' ? 'payments' : 'keys');
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`} className="card settings">
        {tab === 'keys' ? (
          <>
            <p className="muted">The generative provider's key. Secrets are stored encrypted and shown masked.</p>
            {apiKeys.map((key) => (
              <KeyField
                key={key}
                name={key}
                value={values[key] ?? ''}
                status={statuses.get(key) ?? 'unknown'}
                onChange={(v) => edit(key, v)}
                onTest={isProviderKey(key) ? () => void test(key) : undefined}
                testing={testing === key}
              />
            ))}
          </>
        ) : (
          <>
            <p className="muted">Stripe's publishable key and the price id of each plan.</p>
            {paymentKeys.map((key) => (
              <KeyField
                key={key}
                name={key}
                value={values[key] ?? ''}
                status={statuses.get(key) ?? 'unknown'}
                onChange={(v) => edit(key, v)}
              />
            ))}
          </>
        )}
      </div>
      {dirty && (
        <section className="unsaved-bar" aria-label="Unsaved changes">
          <p>You have unsaved changes</p>
          <div className="links-row">
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setDraft(null)}
              disabled={save.isPending}
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => save.mutate()}
              disabled={save.isPending}
            >
              {save.isPending ? 'Saving…' : 'Save Changes'}
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
