import { useState } from 'react';
import { useGenerationOptions, useTokenBalance, useTokenHistory } from '../api/queries';
import { useAuth } from '../auth/auth-context';
import { Spinner } from '../components/Spinner';
import { useRefreshProfileOnVisit } from '../features/content/RefreshProfile';
import { BatchUpload } from '../features/dashboard/BatchUpload';
import { usePurchaseReturn } from '../features/dashboard/purchase-return';
import { EnhancementTypeCard } from '../features/dashboard/EnhancementTypeCard';
import { RecentImages } from '../features/dashboard/RecentImages';
import { useUnlockReturn } from '../features/dashboard/unlock-return';
import { EnhanceHero } from '../features/enhance/EnhanceHero';
import { PricingBlock } from '../features/pricing/PricingBlock';
import { imagesFromTokens } from '../lib/constants';
import { type EnhancementType, loadEnhancementType, saveEnhancementType } from '../lib/enhancement-type';
import { formatCount } from '../lib/format-count';

function greetingName(p: { firstName: string | null; email: string } | null): string {
  return p?.firstName || p?.email.split('@')[0] || 'User';
}

export default function DashboardPage() {
  useRefreshProfileOnVisit();
  useUnlockReturn();
  usePurchaseReturn();
  const { profile } = useAuth();
  const balance = useTokenBalance({ enabled: true, onDashboard: true });
  const tokens = balance.data?.balance ?? profile?.tokenBalance ?? 0;
  const [type, setType] = useState<EnhancementType>(loadEnhancementType);
  const subscriber = profile?.subscriptionStatus === 'active';
  const options = useGenerationOptions().data;
  const [instruction, setInstruction] = useState('');
  const prompting =
    subscriber && options?.advanced_prompting
      ? { value: instruction, onChange: setInstruction, maxLength: options.instruction_max_length }
      : undefined;
  const chooseType = (next: EnhancementType) => {
    setType(next);
    saveEnhancementType(next);
  };

  return (
    <div className="page dashboard">
      <h1>Welcome back, {greetingName(profile)}!</h1>
      <EnhancementTypeCard value={type} onChange={chooseType} subscriber={subscriber} prompting={prompting} />
      <div className="dashboard__top">
        <EnhanceHero dashboard={{ value: type, subscriber, instruction: prompting ? instruction : '' }} />
        <section className="card" aria-labelledby="balance-title">
          <h2 id="balance-title">Token balance</h2>
          <p className="balance">{formatCount(tokens)}</p>
          {profile?.isUnlimited ? (
            <p className="muted">
              {profile.subscriptionPlanName ?? 'Unlimited'}
              {profile.subscriptionPeriodEnd &&
                `, renews ${new Date(profile.subscriptionPeriodEnd).toLocaleDateString('en-US')}`}
            </p>
          ) : (
            <p className="muted">Enough for {imagesFromTokens(tokens)} images</p>
          )}
        </section>
      </div>
      <BatchUpload />
      <RecentImages />
      <TokenHistoryList />
      {!profile?.isUnlimited && <PricingBlock />}
    </div>
  );
}

function TokenHistoryList() {
  const history = useTokenHistory(true);
  const latest = history.data?.transactions.slice(0, 10) ?? [];
  return (
    <section className="section" aria-labelledby="history-title">
      <h2 id="history-title">Token History</h2>
      {history.isPending ? (
        <Spinner label="Loading token history" />
      ) : latest.length === 0 ? (
        <p className="muted">No transactions yet.</p>
      ) : (
        <ul className="history">
          {latest.map((t) => (
            <li key={t.id} className="history__row">
              <span>{t.description}</span>
              <span className="small muted">
                {t.createdAt ? new Date(t.createdAt).toLocaleDateString('en-US') : ''}
              </span>
              <span className={t.amount >= 0 ? 'credit' : 'debit'}>
                {t.amount >= 0 ? '+' : ''}
                {t.amount}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
