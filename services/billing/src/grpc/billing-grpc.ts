import { billing } from '@flatlay/proto';
import { AppError, serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';
import { paymentHistory } from '../app/payment-history.js';
import type { BillingApp } from '../service-app.js';

type ProductsAnswer = ReturnType<BillingApp['catalogue']['productsAnswer']>;
type Pricing = ProductsAnswer['subscriptions'][number]['pricing'];
type PriceAnswer = Pricing['monthly'] | Pricing['yearly'];

const priceMessage = (p: PriceAnswer): billing.PlanPrice => ({
  priceId: p.price_id ?? '',
  amount: p.amount,
  currency: p.currency,
  displayPrice: p.display_price,
  savings: p.savings ?? '',
});

/** The catalogue's products answer as its message (a free plan's price id and a monthly saving are ""). */
function productsMessage(a: ProductsAnswer): billing.ListProductsResponse {
  return {
    subscriptions: a.subscriptions.map((plan) => ({
      id: plan.id,
      name: plan.name,
      description: plan.description,
      features: plan.features,
      tokensPerMonth: plan.tokens_per_month,
      pricing: { monthly: priceMessage(plan.pricing.monthly), yearly: priceMessage(plan.pricing.yearly) },
    })),
    tokenPacks: a.token_packs.map((pack) => ({
      id: pack.id,
      name: pack.name,
      description: pack.description,
      tokens: pack.tokens,
      amount: pack.amount,
      currency: pack.currency,
      displayPrice: pack.display_price,
      priceId: pack.price_id,
      perImageCost: pack.per_image_cost,
      productType: pack.product_type,
    })),
    unlock: {
      name: a.unlock.name,
      amount: a.unlock.amount,
      currency: a.unlock.currency,
      displayPrice: a.unlock.display_price,
    },
  };
}

/** Maps the BillingService protobuf API to the application. */
export function billingGrpcService(ctx: ServiceContext, app: () => BillingApp): GrpcService {
  const { logger } = ctx;
  const local = () => {
    const provider = app().localProvider;
    if (!provider) throw new AppError('NOT_CONFIGURED', 'The local payment provider is not in use');
    return provider;
  };
  const implementation: billing.BillingServiceServer = {
    getServiceStatus: unary(logger, async () => serviceStatus(ctx)),

    listProducts: unary(logger, async () => productsMessage(app().catalogue.productsAnswer())),

    createCheckoutSession: unary(logger, async (r: billing.CreateCheckoutSessionRequest) => {
      const { url, sessionId } = await app().checkouts.startCheckout({
        userId: r.userId,
        email: r.email,
        priceId: r.priceId,
        plan: r.plan,
        productType: r.productType,
        promoCode: r.promoCode,
        idempotencyKey: r.idempotencyKey,
      });
      return { url, sessionId };
    }),

    createAnonymousPayment: unary(logger, async (r: billing.CreateAnonymousPaymentRequest) => {
      const { url, sessionId } = await app().checkouts.startAnonymousPayment({
        enhancementId: r.enhancementId,
        successUrl: r.successUrl,
        cancelUrl: r.cancelUrl,
        email: r.email,
        idempotencyKey: r.idempotencyKey,
      });
      return { checkoutUrl: url, sessionId };
    }),

    getAnonymousPayment: unary(logger, async (r: billing.GetAnonymousPaymentRequest) => ({
      enhancementId: r.enhancementId,
      ...(await app().checkouts.anonymousPayment(r.enhancementId)),
    })),

    createImageUnlockCheckout: unary(logger, async (r: billing.CreateImageUnlockCheckoutRequest) => {
      const { url, sessionId } = await app().checkouts.startImageUnlock({
        userId: r.userId,
        email: r.email,
        imageId: r.imageId,
        returnUrl: r.returnUrl,
        idempotencyKey: r.idempotencyKey,
      });
      return { checkoutUrl: url, sessionId };
    }),

    listPayments: unary(logger, async (r: billing.ListPaymentsRequest) => {
      const { payments, periods } = await paymentHistory(ctx.pool, r.userId);
      return {
        payments: payments.map((p) => ({
          paymentId: p.paymentId,
          kind: p.kind,
          packName: p.packName,
          tokens: p.tokens,
          imageId: p.imageId,
          amountCents: p.amountCents,
          currency: p.currency,
          refunded: p.refunded,
          paidAt: p.paidAt,
        })),
        subscriptionPeriods: periods,
      };
    }),

    getSubscription: unary(logger, async (r: billing.GetSubscriptionRequest) => app().subscriptions.status(r.userId)),

    cancelSubscription: unary(logger, async (r: billing.CancelSubscriptionRequest) =>
      app().subscriptions.cancel(r.userId),
    ),

    setComplimentaryPlan: unary(logger, async (r: billing.SetComplimentaryPlanRequest) =>
      app().subscriptions.setComplimentary(r),
    ),

    createPortalSession: unary(logger, async (r: billing.CreatePortalSessionRequest) =>
      app().subscriptions.portal(r.userId),
    ),

    getStripeConfig: unary(logger, async () => {
      const { provider, operatorSettings } = app();
      // The key saved on the settings page wins over the one from the environment.
      const publishableKey = operatorSettings.publishableKey ?? provider.publishableKey;
      if (!publishableKey) throw new AppError('NOT_CONFIGURED', 'Payment System Not Configured');
      return { publishableKey, provider: provider.name };
    }),

    handleWebhook: unary(logger, async (r: billing.HandleWebhookRequest) => {
      const result = await app().webhooks.handle(r.payload, r.signature);
      return { received: true, duplicate: result.duplicate, eventType: result.eventType };
    }),

    renderLocalCheckout: unary(logger, async (r: billing.RenderLocalCheckoutRequest) =>
      local().renderCheckout(r.sessionId),
    ),

    submitLocalCheckout: unary(logger, async (r: billing.SubmitLocalCheckoutRequest) => ({
      redirectUrl: await local().submitCheckout(r.sessionId, r.action, r.csrfToken),
    })),

    renderLocalPortal: unary(logger, async (r: billing.RenderLocalPortalRequest) =>
      local().renderPortal(r.portalSessionId),
    ),

    submitLocalPortal: unary(logger, async (r: billing.SubmitLocalPortalRequest) => ({
      redirectUrl: await local().submitPortal(r.portalSessionId, r.action, r.csrfToken),
    })),
  };
  return { name: 'flatlay.billing.v1.BillingService', definition: billing.BillingServiceService, implementation };
}
