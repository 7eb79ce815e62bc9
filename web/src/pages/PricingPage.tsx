import { useRefreshProfileOnVisit } from '../features/content/RefreshProfile';
import { PricingBlock } from '../features/pricing/PricingBlock';
import { useEffect } from 'react';
import { trackPixel } from '../lib/pixels';

export default function PricingPage() {
  useEffect(() => trackPixel('ViewContent', { content_name: 'pricing' }), []);
  useRefreshProfileOnVisit();
  return (
    <div className="page">
      <PricingBlock title="Pricing" />
    </div>
  );
}
