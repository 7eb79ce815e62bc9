// /api/payments, /api/checkout and /api/stripe, by what they do: the catalogue, checkouts of packs
// and plans, and unlocks by payment.
import type { ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { catalogueRoutes } from './payments-catalogue.js';
import { checkoutRoutes } from './payments-checkout.js';
import { type PaymentRouteOptions, unlockPaymentRoutes } from './payments-unlock.js';

export type { PaymentRouteOptions } from './payments-unlock.js';

export const paymentRoutes = (clients: ServiceClients, options: PaymentRouteOptions): ApiRoute[] => [
  ...catalogueRoutes(clients),
  ...checkoutRoutes(clients),
  ...unlockPaymentRoutes(clients, options),
];
