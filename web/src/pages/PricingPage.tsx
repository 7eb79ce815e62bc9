import { useRefreshProfileOnVisit } from '../features/content/RefreshProfile';
import { PricingBlock } from '../features/pricing/PricingBlock';

export default function PricingPage() {
  useRefreshProfileOnVisit();
  return (
    <div className="page">
      <PricingBlock title="Pricing" />
    </div>
  );
}
