import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Spinner } from '../../components/Spinner';
import { errorToast, toast } from '../../components/toast/toast-store';
import {
  type AdminUser,
  type BalanceFilter,
  type PlanFilter,
  type SignupFilter,
  setUnlimited,
  type UserQuery,
} from './admin-api';
import { adminKeys, useUserPage } from './admin-queries';
import { rememberUnlimited } from './pending-changes';
import { DeleteUserDialog } from './DeleteUserDialog';
import { ManageCreditsDialog } from './ManageCreditsDialog';
import { planColour, PLAN_LABELS, type PlanName } from './stats';
import {
  activeFilterCount,
  NO_FILTERS,
  PAGE_SIZE,
  pageButtons,
  pageCount,
  planOf,
  type UserFilters,
} from './user-search';
import { formatCount } from '../../lib/format-count';

/** Typing settles for this long before the server is asked. */
const SEARCH_DEBOUNCE_MS = 300;

const PLAN_OPTIONS: { value: PlanFilter; label: string }[] = [
  { value: 'all', label: 'All plans' },
  { value: 'lite', label: 'Lite' },
  { value: 'studio', label: 'Studio' },
  { value: 'unlimited', label: 'Unlimited' },
  { value: 'none', label: 'No plan' },
];
const SIGNUP_OPTIONS: { value: SignupFilter; label: string }[] = [
  { value: 'all', label: 'Any time' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];
const BALANCE_OPTIONS: { value: BalanceFilter; label: string }[] = [
  { value: 'all', label: 'Any balance' },
  { value: 'high', label: 'High (100+)' },
  { value: 'medium', label: 'Medium (10-99)' },
  { value: 'low', label: 'Low (1-9)' },
  { value: 'zero', label: 'Zero' },
];

const formatDate = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso || 'Unknown'
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
};

function PlanBadge({ user }: { user: AdminUser }) {
  const plan = planOf(user);
  const label = PLAN_LABELS[plan as PlanName] ?? user.subscription_plan_name ?? plan;
  return <span className={`plan-badge plan-badge--${planColour(plan)}`}>{label}</span>;
}

/** Grants the unlimited plan, or revokes it from a user who has it (the server checks the role and the plan). */
function UnlimitedButton({ user }: { user: AdminUser }) {
  const queryClient = useQueryClient();
  const grant = !user.is_unlimited;
  const change = useMutation({
    mutationFn: setUnlimited,
    onSuccess: (answer, sent) => {
      rememberUnlimited(sent.user_email, sent.granted);
      toast({ title: 'Success', description: answer.message });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) =>
      errorToast('Error', error instanceof Error && error.message ? error.message : 'Failed to change the plan'),
  });
  return (
    <button
      type="button"
      className="button button--outline button--small"
      aria-label={`${grant ? 'Grant' : 'Revoke'} unlimited for ${user.email}`}
      disabled={change.isPending}
      onClick={() => change.mutate({ user_email: user.email, granted: grant })}
    >
      {grant ? 'Grant Unlimited' : 'Revoke Unlimited'}
    </button>
  );
}

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <label className="field field--compact">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** User Management: server-side search and filters, 50 a page, credits and deletion per row. */
export function UserManagement({ enabled }: { enabled: boolean }) {
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const [filters, setFilters] = useState<UserFilters>(NO_FILTERS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [crediting, setCrediting] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  useEffect(() => {
    // Only a changed search goes back to page 1: on mount (nothing typed) a page the operator
    // picked within the debounce must stay picked.
    if (searchText === q) return;
    const timer = setTimeout(() => {
      setQ(searchText);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, q]);

  const query: UserQuery = { q, ...filters, page, pageSize: PAGE_SIZE };
  const list = useUserPage(query, enabled);
  const data = list.data;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;
  const searching = q.trim() !== '' || activeFilterCount(filters) > 0;

  function setFilter<K extends keyof UserFilters>(key: K, value: UserFilters[K]) {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  }

  let body: React.ReactNode;
  if (list.isPending) body = <Spinner label="Loading users" />;
  else if (list.isError && !data)
    body = (
      <div className="list-state" role="alert">
        <p className="error-text">Failed to load users</p>
        <button type="button" className="button button--outline" onClick={() => void list.refetch()}>
          Retry
        </button>
      </div>
    );
  else if (!data || data.users.length === 0)
    body = <p className="list-state muted">{searching ? 'No users found matching your search' : 'No users found'}</p>;
  else
    body = (
      <div className="table-scroll">
        <table className="users-table">
          <caption className="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Plan</th>
              <th scope="col">Tokens</th>
              <th scope="col">Status</th>
              <th scope="col">Joined</th>
              <th scope="col">Images</th>
              <th scope="col">Last Active</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((user) => (
              <tr key={user.id} data-email={user.email}>
                <td>
                  <span className="users-table__name">{user.name || user.email.split('@')[0]}</span>
                  <span className="small muted users-table__email">{user.email}</span>
                </td>
                <td>
                  <PlanBadge user={user} />
                </td>
                <td className="users-table__tokens">{user.is_unlimited ? '∞' : formatCount(user.token_balance)}</td>
                <td>{user.subscription_status || '—'}</td>
                <td>{formatDate(user.created_at)}</td>
                <td>{user.total_images_processed}</td>
                <td>{user.last_active === 'Unknown' ? 'Unknown' : formatDate(user.last_active)}</td>
                <td className="users-table__actions">
                  <button
                    type="button"
                    className="button button--outline button--small"
                    aria-label={`Manage credits for ${user.email}`}
                    onClick={() => setCrediting(user)}
                  >
                    Credits
                  </button>
                  <UnlimitedButton user={user} />
                  <button
                    type="button"
                    className="button button--ghost button--small button--danger-text"
                    aria-label={`Delete ${user.email}`}
                    onClick={() => setDeleting(user)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <article className="card users" aria-labelledby="users-title">
      <div className="users__head">
        <h2 id="users-title">User Management</h2>
        {data && (
          <p className="small muted" aria-live="polite">
            {formatCount(data.total)}
            {data.totalExact ? '' : '+'} {data.total === 1 ? 'user' : 'users'}
            {list.isFetching ? ' · refreshing' : ''}
          </p>
        )}
      </div>
      <div className="users__search">
        <label className="field users__search-field">
          <span className="visually-hidden">Search users</span>
          <input
            type="search"
            placeholder="Search users, or field:value (email:, name:, plan:, tokens:, status:, date:)"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--outline"
          aria-expanded={filtersOpen}
          aria-controls="user-filters"
          onClick={() => setFiltersOpen((o) => !o)}
        >
          Filters{activeFilterCount(filters) > 0 ? ` (${activeFilterCount(filters)})` : ''}
        </button>
      </div>
      {filtersOpen && (
        <div id="user-filters" className="users__filters">
          <Select label="Plan" value={filters.plan} options={PLAN_OPTIONS} onChange={(v) => setFilter('plan', v)} />
          <Select
            label="Signed up"
            value={filters.signup}
            options={SIGNUP_OPTIONS}
            onChange={(v) => setFilter('signup', v)}
          />
          <Select
            label="Token balance"
            value={filters.balance}
            options={BALANCE_OPTIONS}
            onChange={(v) => setFilter('balance', v)}
          />
          <button
            type="button"
            className="button button--ghost"
            disabled={activeFilterCount(filters) === 0}
            onClick={() => {
              setFilters(NO_FILTERS);
              setPage(1);
            }}
          >
            Clear Filters
          </button>
        </div>
      )}
      {body}
      {data && pages > 1 && (
        <nav className="pagination" aria-label="User pages">
          <button
            type="button"
            className="button button--outline button--small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </button>
          {pageButtons(page, pages).map((p) => (
            <button
              key={p}
              type="button"
              className={`button button--small ${p === page ? 'button--primary' : 'button--outline'}`}
              aria-current={p === page ? 'page' : undefined}
              aria-label={`Page ${p}`}
              onClick={() => setPage(p)}
            >
              {p}
            </button>
          ))}
          <button
            type="button"
            className="button button--outline button--small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </nav>
      )}
      <ManageCreditsDialog user={crediting} onClose={() => setCrediting(null)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </article>
  );
}
