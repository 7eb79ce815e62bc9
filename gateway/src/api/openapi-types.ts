// Generated from gateway/openapi/openapi.json by `npm run api:gen` (openapi-typescript). Do not edit.
export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (OpenAPI 3.1) */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account with e-mail and password (200 free tokens) */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a Google ID token; creates or links the account */
        post: operations["postAuthGoogle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/supabase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a Supabase access token (bearer); creates or links the account */
        post: operations["postAuthSupabase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The profile of the caller */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the presented token until it would expire */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify-email/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a new link that verifies the caller’s e-mail address (valid 24 hours) */
        post: operations["postAuthVerifyEmailSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify an e-mail address with the token of the link sent to it */
        post: operations["postAuthVerifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** E-mail a link to choose a new password (valid 1 hour); the same answer whether or not the address has an account */
        post: operations["postAuthForgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Choose a new password with the token of a reset link; every session of the account ends */
        post: operations["postAuthResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (the current one required); every other session ends, this one gets a new token */
        post: operations["postAuthChangePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/change-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move the account to a new address: a link is sent there, and nothing changes until it is used */
        post: operations["postAuthChangeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/confirm-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm a new e-mail address with the token of the link sent to it; the old address is told */
        post: operations["postAuthConfirmEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export the caller’s data: a JSON archive of the profile, token history, payments and images (with links to the files) is made in the background and e-mailed as a link valid 7 days */
        post: operations["postAuthExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/delete-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete the caller’s own account (password and the typed word DELETE): tokens, images and personal data go, a subscription stops renewing, and a confirmation is e-mailed */
        post: operations["postAuthDeleteAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's token balance */
        get: operations["getTokensBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's balance and latest transactions, newest first */
        get: operations["getTokens"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a photo and start its enhancement (100 tokens; locked when the caller has fewer)
         * @description The photo is stored and its enhancement queued; poll GET /images/status/{id} (or listen on /images/events). With 100 tokens (or an unlimited plan) the caller is charged now and gets an unlocked result; with fewer, the result is made but locked (is_locked) until unlocked. A refused upload costs nothing and leaves nothing behind.
         */
        post: operations["postImagesGenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a generation may ask for here: advanced prompting only where a generative provider is configured */
        get: operations["getImagesOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload up to 20 photos at once: one image per file, each charged and processed like a single generate
         * @description The files are enhanced in the order sent, each charged 100 tokens while the balance lasts; the rest are made locked. A refused file (too large, not an image) refuses the whole request before anything is charged.
         */
        post: operations["postImagesBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's images (polled while processing) */
        get: operations["getImagesStatusId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's images, newest first, a page at a time */
        get: operations["getImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/unlock-with-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unlock a locked result for 100 tokens (free on an unlimited plan); a repeat is free */
        post: operations["postImagesUnlockWithTokensId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/anonymous/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A guest's try: upload a photo with an e-mail address; the result is locked until paid
         * @description Limited per client IP (an IPv6 client's /64) and per e-mail address per hour, and to a few tries still processing at once; over a limit: 429 with Retry-After and a message to sign up. An unclaimed, unpaid try is deleted after the retention (ANON_RETENTION_DAYS); its status then answers 404.
         */
        post: operations["postImagesAnonymousGenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/anonymous/status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A guest's try (the enhancement id is the guest's handle) */
        get: operations["getImagesAnonymousStatusId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/unlock-anonymous-with-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claim a guest's try into the caller's gallery, unlocked, for 100 tokens; a repeat is free */
        post: operations["postImagesUnlockAnonymousWithTokensId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/events/ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A ticket to open GET /images/events with (valid for 60 seconds) */
        post: operations["postImagesEventsTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status changes of the caller's images, as Server-Sent Events
         * @description Opened with a ticket from POST /images/events/ticket (EventSource cannot send a bearer header, and an access token in a URL would end up in logs). Each change of an image (status, lock) arrives as an `image` event whose data is the image as GET /images/ lists it. The server ends the stream after `seconds`, and as soon as the session that asked for the ticket ends (logout, deletion of the account, a session cut); ask for a new ticket to reconnect.
         */
        get: operations["getImagesEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Operator sign-in (admin role only) */
        post: operations["postAdminLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every user, or one page of a search with filters
         * @description Without query parameters: the bare array of every user record, newest first. With any of them: the page `{users, total, page, page_size}`. `q` is free text matched case-insensitively against e-mail, name, plan, "unlimited", token balance, date parts and status, or `field:value` with field email, name, plan, tokens|balance, status or date|created (an unknown field matches nothing).
         */
        get: operations["getAdminUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/stats/signups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sign-ups of the last 24 hours */
        get: operations["getAdminStatsSignups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/stats/paid-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users who paid in the last 24 hours, and ever */
        get: operations["getAdminStatsPaidUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/stats/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-ups per day, week or month over a period
         * @description 7d: 7 daily points; 30d: 30 daily; 3m: 13 weekly; 1y: 12 monthly; lifetime: monthly from the first sign-up.
         */
        get: operations["getAdminStatsTrend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/stats/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Growth, retention, conversion, plan mix, guest purchases and projection lag */
        get: operations["getAdminStatsOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/unlimited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grants or revokes the unlimited plan (no payment): billing publishes it as it does a paid plan */
        post: operations["postAdminUsersUnlimited"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/tokens/adjust": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Adds or deducts tokens on a user's account (a deduct stops at 0) */
        post: operations["postAdminTokensAdjust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/user/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes a user's account and personal data (not an administrator's, not your own) */
        delete: operations["deleteAdminUserDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/refunds/unpaid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Refunds of failed generations that could not be paid (the account was closed), newest first */
        get: operations["getAdminRefundsUnpaid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dead letters per consumer group and topic: how many wait, the oldest, the last error */
        get: operations["getAdminDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/dead-letters/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publishes the waiting dead letters of one dead-letter topic again on their source topic, oldest first */
        post: operations["postAdminDeadLettersReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/dead-letters/discard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Marks the waiting dead letters of one dead-letter topic as dealt with, without publishing them */
        post: operations["postAdminDeadLettersDiscard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The web app's settings for this deployment (Google client id, support address, pixel ids)
         * @description Public values only: what a browser needs to offer Google sign-in and load the configured pixels. Unset values are null, and the Content Security Policy then allows none of their origins.
         */
        get: operations["getConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plans, token packs and the unlock price, as the pricing pages show them */
        get: operations["getPaymentsProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stripe/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The payment provider's publishable key (a local one, pk_local_…, without Stripe) */
        get: operations["getStripeConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/create-checkout-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A checkout of a token pack or a plan, by price id
         * @description The server chooses the return addresses: /dashboard?payment=success, and back to /pricing on cancel. Without a promo code the buyer may still enter one on the checkout page.
         */
        post: operations["postPaymentsCreateCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A checkout by price id and product type, or of a plan by its key (studio_monthly) */
        post: operations["postCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/create-anonymous-payment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A checkout of the unlock price for a guest's try
         * @description The return addresses must be on the product's own origin. The try unlocks when the provider confirms the payment (its webhook), never on the browser's word. Only a finished try is sold.
         */
        post: operations["postPaymentsCreateAnonymousPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/anonymous-enhancement/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A guest's try and whether it is paid (processed_url is the full result once it is) */
        get: operations["getPaymentsAnonymousEnhancementId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/unlock-anonymous-enhancement/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The full result of a guest's paid try
         * @description Answers at once: 200 once the payment provider has confirmed the payment to billing (its webhook) and the image service has unlocked the try; 202 while a started payment is not confirmed yet (the webhook can land after the browser returns) or is confirmed and still being unlocked. The client asks again, with back-off, while it is 202 (docs/decisions/0107-guest-unlock-confirmation.md).
         */
        post: operations["postPaymentsUnlockAnonymousEnhancementId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/unlock/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A checkout of the unlock price for one of the caller’s locked images
         * @description The server picks the return addresses: /dashboard?unlock_success=true&image_id={id}, and /dashboard?unlock_cancelled=true. The image unlocks when the provider confirms the payment.
         */
        post: operations["postImagesUnlockId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/locked-image-ticket/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A short-lived ticket to open GET /payments/create-locked-image-payment with
         * @description That address is a browser navigation, which cannot carry the bearer header; the ticket names the caller and this image and lasts five minutes.
         */
        post: operations["postPaymentsLockedImageTicketId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/create-locked-image-payment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browser navigation to the checkout of a locked image (303), opened with a ticket
         * @description The ticket comes from POST /payments/locked-image-ticket/{id} (never an access token in a URL). return_url, on the product’s own origin (a path is read against it), is where the browser comes back to, with unlock_success=true&image_id or unlock_cancelled=true added.
         */
        get: operations["getPaymentsCreateLockedImagePayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's subscription */
        get: operations["getSubscriptionStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel at the end of the paid period (the plan stays until then) */
        post: operations["postSubscriptionCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/create-billing-portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payment provider's billing portal for the caller (cancel, resume, invoices) */
        post: operations["postCreateBillingPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/stripe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe's events, signed (Stripe-Signature header)
         * @description A missing or wrong signature is refused (400) and changes nothing; an event id seen before answers 200 again with duplicate: true and changes nothing.
         */
        post: operations["postWebhooksStripe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/keys/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each setting and its status */
        get: operations["getSettingsKeysStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The non-secret configuration and the settings, secrets masked to their last 4 characters */
        get: operations["getSettingsConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Saves settings: a value still in its masked form keeps the stored one, "" removes it */
        post: operations["postSettingsKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/test/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tests a service's saved settings with one call to the provider
         * @description service: the generative provider (its model list) or stripe (the balance, and each configured price id). A failure answers 200 with success false and "Connection failed: <reason>".
         */
        post: operations["postSettingsTestService"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Session: {
            /** @description Bearer access token (JWT) */
            access_token: string;
            /** @constant */
            token_type: "bearer";
            user: components["schemas"]["User"];
        };
        /**
         * @example {
         *       "id": "7f3c2a10-4b5e-4c1d-9a8b-2f6e1d0c9b8a",
         *       "email": "ada@example.com",
         *       "tokenBalance": 200,
         *       "firstName": null,
         *       "lastName": null,
         *       "name": "ada",
         *       "avatarUrl": null,
         *       "stripeCustomerId": null,
         *       "stripeSubscriptionId": null,
         *       "subscriptionPlan": "none",
         *       "subscriptionStatus": null,
         *       "subscriptionPlanName": null,
         *       "subscriptionPeriodEnd": null,
         *       "isUnlimited": false,
         *       "role": "user",
         *       "createdAt": "2025-01-31T09:30:00.000Z",
         *       "emailVerified": true
         *     }
         */
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            tokenBalance: number;
            firstName: string | null;
            lastName: string | null;
            /** @description First plus last name, else first name, else the e-mail local part */
            name: string;
            /** Format: uri */
            avatarUrl: string | null;
            stripeCustomerId: string | null;
            stripeSubscriptionId: string | null;
            /** @enum {string} */
            subscriptionPlan: "none" | "lite" | "studio" | "bulk" | "unlimited";
            subscriptionStatus: ("active" | "past_due" | "canceled") | null;
            subscriptionPlanName: string | null;
            subscriptionPeriodEnd: string | null;
            isUnlimited: boolean;
            /** @enum {string} */
            role: "user" | "admin";
            createdAt: string | null;
            /** @description Whether the person proved the address: a link from the verification or reset e-mail, or a verified Google or Supabase sign-in */
            emailVerified: boolean;
        };
        /**
         * @example {
         *       "detail": "Please enter a valid email address",
         *       "message": "Please enter a valid email address",
         *       "code": "INVALID_ARGUMENT"
         *     }
         */
        Error: {
            /** @description What went wrong and what to do about it */
            detail: string;
            /** @description The same text as detail */
            message: string;
            /** @description Error code, e.g. INVALID_ARGUMENT, UNAUTHENTICATED, NOT_CONFIGURED */
            code: string;
            /** @description Facts a client may need, e.g. retryAfterSeconds */
            context?: {
                [key: string]: string | number | boolean;
            };
        };
        /**
         * @example {
         *       "id": "a1b2c3",
         *       "description": "Sign-up bonus",
         *       "amount": 200,
         *       "createdAt": "2025-01-31T09:30:00.000Z"
         *     }
         */
        Transaction: {
            id: string;
            description: string;
            /** @description Positive for credits, negative for debits */
            amount: number;
            createdAt: string | null;
        };
        Generation: {
            /** @constant */
            success: true;
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            image_id: string;
            /**
             * Format: uuid
             * @description The same as image_id
             */
            enhancement_id: string;
            /** @constant */
            status: "processing";
            /** @description Tokens taken now (0 when locked or on an unlimited plan) */
            tokensUsed: number;
            /** @description The balance after the charge */
            newBalance: number | null;
            /** @description Too few tokens: the result is made but locked until unlocked */
            is_locked: boolean;
            /** @description The same as is_locked */
            locked: boolean;
            /** @description The watermarked preview (null until the result is ready: poll the status); a signed URL that expires (null: none) */
            preview_url: string | null;
            /** @description The best the caller may see once ready; a signed URL that expires (null: none) */
            image_url: string | null;
            image: components["schemas"]["Image"];
        };
        /**
         * @example {
         *       "id": "0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11",
         *       "image_id": "0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11",
         *       "status": "completed",
         *       "original_url": "/files/uploads/1c0f.. ?expires=1767225600&signature=...",
         *       "processed_url": "/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/result.jpg?expires=1767225600&signature=...",
         *       "preview_url": "/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/preview.jpg?expires=1767225600&signature=...",
         *       "image_url": "/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/result.jpg?expires=1767225600&signature=...",
         *       "is_locked": false,
         *       "createdAt": "2025-01-31T09:30:00.000Z",
         *       "enhancement_type": "tops"
         *     }
         */
        Image: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The same as id
             */
            image_id: string;
            /** @enum {string} */
            status: "processing" | "completed" | "failed";
            /** @description The uploaded photo; a signed URL that expires (null: none) */
            original_url: string | null;
            /** @description The full result; null while processing, when failed, and while locked; a signed URL that expires (null: none) */
            processed_url: string | null;
            /** @description The watermarked preview, once completed; a signed URL that expires (null: none) */
            preview_url: string | null;
            /** @description The best the caller may see: the full result when unlocked, else the preview; a signed URL that expires (null: none) */
            image_url: string | null;
            is_locked: boolean;
            createdAt: string | null;
            /** @description What was asked for: a main type, or a sub-type (subscribers may choose any) */
            enhancement_type: string;
        };
        ImageStatus: {
            /** @enum {string} */
            status: "processing" | "completed" | "failed";
            /** @description The full result; null while processing, when failed, and while locked; a signed URL that expires (null: none) */
            processed_url: string | null;
            /** @description The watermarked preview, once completed; a signed URL that expires (null: none) */
            preview_url: string | null;
            is_locked: boolean;
            /** @description Why the enhancement failed; null otherwise */
            error: string | null;
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The same as id
             */
            image_id: string;
            /** @description The uploaded photo; a signed URL that expires (null: none) */
            original_url: string | null;
            /** @description The best the caller may see: the full result when unlocked, else the preview; a signed URL that expires (null: none) */
            image_url: string | null;
            createdAt: string | null;
            /** @description What was asked for: a main type, or a sub-type (subscribers may choose any) */
            enhancement_type: string;
        };
        AnonymousEnhancement: {
            /** Format: uuid */
            enhancement_id: string;
            /**
             * @description processing (still generating), pending_payment (ready, locked: both URLs are the watermarked preview), completed (paid or claimed), failed
             * @enum {string}
             */
            status: "processing" | "pending_payment" | "completed" | "failed";
            is_paid: boolean;
            /** @description The uploaded photo; a signed URL that expires (null: none) */
            original_url: string | null;
            /** @description The full result once paid; before payment the watermarked preview; a signed URL that expires (null: none) */
            processed_url: string | null;
            /** @description The watermarked preview, once ready; a signed URL that expires (null: none) */
            preview_url: string | null;
        };
        AdminUser: {
            id: string;
            email: string;
            /** @description Display name; the e-mail's local part when the profile has none */
            name: string;
            picture: string;
            token_balance: number;
            /** @description "" (never subscribed), active, past_due or canceled */
            subscription_status: string;
            /** @enum {string} */
            subscription_plan: "none" | "lite" | "studio" | "bulk" | "unlimited";
            subscription_plan_name: string;
            is_unlimited: boolean;
            /** @description ISO 8601, or "" without a subscription period */
            subscription_period_end: string;
            created_at: string;
            updated_at: string;
            total_images_processed: number;
            /** @description ISO 8601 of the newest activity, or "Unknown" */
            last_active: string;
        };
        Products: {
            subscriptions: ({
                id: string;
                name: string;
                description: string;
                features: string[];
                tokens_per_month: number;
                pricing: {
                    monthly: {
                        price_id: string | null;
                        /** @description Cents */
                        amount: number;
                        currency: string;
                        display_price: string;
                        /** @description Against twelve months of the monthly price (yearly only) */
                        savings: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                    yearly: {
                        price_id: string | null;
                        /** @description Cents */
                        amount: number;
                        currency: string;
                        display_price: string;
                        /** @description Against twelve months of the monthly price (yearly only) */
                        savings: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            } & {
                [key: string]: unknown;
            })[];
            token_packs: ({
                id: string;
                name: string;
                description: string;
                tokens: number;
                /** @description Cents */
                amount: number;
                currency: string;
                display_price: string;
                price_id: string;
                /** @description Dollars per image (100 tokens) */
                per_image_cost: number;
                /** @constant */
                product_type: "payment";
            } & {
                [key: string]: unknown;
            })[];
            /** @description What one unlock by payment (signed-in or guest) is charged */
            unlock: {
                name: string;
                amount: number;
                currency: string;
                display_price: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        SubscriptionStatus: {
            hasSubscription: boolean;
            /** @description lite, studio (or an operator's bulk, unlimited); null without a subscription */
            subscriptionPlan: string | null;
            status: ("active" | "past_due" | "canceled") | null;
            cancelAtPeriodEnd: boolean;
            /** @description Unix seconds; null without a subscription */
            currentPeriodEnd: number | null;
            billingPeriod: ("monthly" | "yearly") | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of /api */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    email: string;
                    /** @example correct horse battery */
                    password: string;
                    /**
                     * @description Version of the sign-up consent text (privacy policy, terms, being at least 18) the person was shown; recorded with the time when the account is created. Optional
                     * @example 2026-11-signup-18plus
                     */
                    consent_version?: string;
                };
            };
        };
        responses: {
            /** @description Account created and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this email already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "An account with this email already exists",
                     *       "message": "An account with this email already exists",
                     *       "code": "ALREADY_EXISTS"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    email: string;
                    /** @example correct horse battery */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid email or password (the same answer for an unknown e-mail) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid email or password",
                     *       "message": "Invalid email or password",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthGoogle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Google ID token (a JWT: three base64url parts joined by dots) */
                    idToken: string;
                    /**
                     * @description Version of the sign-up consent text (privacy policy, terms, being at least 18) the person was shown; recorded with the time when the account is created. Optional
                     * @example 2026-11-signup-18plus
                     */
                    consent_version?: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Could not verify Google account */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Could not verify Google account",
                     *       "message": "Could not verify Google account",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Administrator accounts sign in with their password */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts sign in with their password",
                     *       "message": "Administrator accounts sign in with their password",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this email exists and the Google address is not verified */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.",
                     *       "message": "An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Google sign-in is not configured on this server (not an outage) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Google sign-in is not configured on this server. Please sign in with your email and password.",
                     *       "message": "Google sign-in is not configured on this server. Please sign in with your email and password.",
                     *       "code": "NOT_CONFIGURED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Google's signing certificates could not be fetched: a real outage, never a refused token */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Google accounts API unavailable",
                     *       "message": "Google accounts API unavailable",
                     *       "code": "UNAVAILABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSupabase: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    id?: string;
                    userId?: string;
                    user_id?: string;
                    email?: string;
                    name?: string;
                    full_name?: string;
                    avatarUrl?: string;
                    avatar_url?: string;
                    user?: {
                        id?: string;
                        userId?: string;
                        user_id?: string;
                        email?: string;
                        name?: string;
                        full_name?: string;
                        avatarUrl?: string;
                        avatar_url?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid Supabase token, or one for another user */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: the Supabase token is invalid or expired",
                     *       "message": "Not authenticated: the Supabase token is invalid or expired",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Administrator accounts sign in with their password */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts sign in with their password",
                     *       "message": "Administrator accounts sign in with their password",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this email exists and the Supabase address is not verified */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.",
                     *       "message": "An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Supabase sign-in is not configured on this server (not an outage) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Supabase sign-in is not configured on this server. Please sign in with your email and password.",
                     *       "message": "Supabase sign-in is not configured on this server. Please sign in with your email and password.",
                     *       "code": "NOT_CONFIGURED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Logged out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Logged out"
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmailSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent, or nothing to do */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "We have sent you a new link. It works for 24 hours.",
                     *       "sent": true
                     *     }
                     */
                    "application/json": {
                        message: string;
                        /** @description False when the address is verified already */
                        sent: boolean;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token from the e-mailed link (the part after '#token=') */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Verified */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Your e-mail address is verified."
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token is not one of ours, was used, replaced by a newer e-mail, or has expired: the message says what to do next */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "message": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthForgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Accepted (nothing revealed) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "If an account uses this address, we have sent it a link to choose a new password. The link works for 1 hour; check your spam folder if it does not arrive within a few minutes."
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token from the e-mailed link (the part after '#token=') */
                    token: string;
                    /** @example correct horse battery */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Password changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Your password has been changed. Please sign in with it."
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token is not one of ours, was used, replaced by a newer e-mail, or has expired: the message says what to do next */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "message": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthChangePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example correct horse battery */
                    current_password: string;
                    /** @example correct horse battery */
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Changed; a new session for the caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The current password is not correct */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The current password is not correct",
                     *       "message": "The current password is not correct",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthChangeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    new_email: string;
                    /** @example correct horse battery */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Confirmation sent to the new address */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "We have sent a link to ada@example.org. Open it within 24 hours to use that address."
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The address is another account’s, or already this one’s */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "An account with this email already exists",
                     *       "message": "An account with this email already exists",
                     *       "code": "ALREADY_EXISTS"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The current password is not correct */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The current password is not correct",
                     *       "message": "The current password is not correct",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthConfirmEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token from the e-mailed link (the part after '#token=') */
                    token: string;
                };
            };
        };
        responses: {
            /** @description The account uses the new address */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Your account now uses ada@example.org.",
                     *       "email": "ada@example.org"
                     *     }
                     */
                    "application/json": {
                        message: string;
                        email: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token is not one of ours, was used, replaced by a newer e-mail, or has expired: the message says what to do next */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "message": "This password reset link has expired or was already used. Ask for a new one from the sign-in page.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this email already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "An account with this email already exists",
                     *       "message": "An account with this email already exists",
                     *       "code": "ALREADY_EXISTS"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: the link will be e-mailed (asking again while one is being made answers the same request) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "We are putting your data together. We will e-mail you a link to download it (valid 7 days), usually within a few minutes.",
                     *       "export_id": "6f1c1f4e-4a53-4a0e-9a1f-0d6a1c2b7e11"
                     *     }
                     */
                    "application/json": {
                        message: string;
                        /** @description The export request */
                        export_id: string;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthDeleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example correct horse battery */
                    password: string;
                    /**
                     * @description The word DELETE, typed by the person
                     * @constant
                     */
                    confirmation: "DELETE";
                };
            };
        };
        responses: {
            /** @description Deleted; every session of the account has ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Your account has been deleted. We have sent a confirmation to your e-mail address."
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The password is not correct */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The password is not correct",
                     *       "message": "The password is not correct",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTokensBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Balance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "balance": 200
                     *     }
                     */
                    "application/json": {
                        balance: number;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTokens: {
        parameters: {
            query?: {
                /** @description How many transactions, newest first */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Balance and history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        balance: number;
                        transactions: components["schemas"]["Transaction"][];
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesGenerate: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The photo: JPEG, PNG, WebP, HEIC/HEIF or AVIF (told by its bytes), at most 10 MB
                     */
                    file: string;
                    /**
                     * @description A main type (clothing, accessory, shoes, details) or a sub-type; tops, jewelry, two_shoe and logo_detail are open to everyone, the other sub-types need an active subscription
                     * @default clothing
                     * @enum {string}
                     */
                    enhancement_type?: "clothing" | "accessory" | "shoes" | "details" | "tops" | "bottoms" | "socks" | "jewelry" | "bags_belts" | "accessory_headwear" | "two_shoe" | "side_view" | "front_view" | "logo_detail" | "fabric_texture" | "hardware_tag";
                    /** @description Advanced prompting: a short instruction for the generative provider (at most 300 characters), stored with the image. Only for an active subscriber whose plan the provider serves, and only where one is configured (GET /images/options says so); otherwise 422. Absent or blank: none */
                    instruction?: string;
                };
            };
        };
        responses: {
            /** @description Accepted: the enhancement is processing */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description An instruction over 300 characters (details.reason: too_long), or another invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The instruction is too long: at most 300 characters.",
                     *       "message": "The instruction is too long: at most 300 characters.",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The image is larger than 10MB. Please choose a smaller file. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "message": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file is not a JPEG, PNG, WebP, HEIC/HEIF or AVIF image (told by its bytes), or the body is not multipart/form-data */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "message": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A sub-type other than tops, jewelry, two_shoe and logo_detail without an active subscription; or an instruction from a caller without an active subscription the generative provider serves, or where no provider is configured (details.reason: subscription_required, not_configured) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The \"side_view\" option needs an active subscription. Choose clothing, accessory, shoes, details, or upgrade your plan.",
                     *       "message": "The \"side_view\" option needs an active subscription. Choose clothing, accessory, shoes, details, or upgrade your plan.",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImagesOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The options (the plan cards promise advanced prompting only when it is true) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "advanced_prompting": true,
                     *       "instruction_max_length": 300
                     *     }
                     */
                    "application/json": {
                        advanced_prompting: boolean;
                        instruction_max_length: number;
                    };
                };
            };
        };
    };
    postImagesBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    files: string[];
                    /**
                     * @description A main type (clothing, accessory, shoes, details) or a sub-type; tops, jewelry, two_shoe and logo_detail are open to everyone, the other sub-types need an active subscription
                     * @default clothing
                     * @enum {string}
                     */
                    enhancement_type?: "clothing" | "accessory" | "shoes" | "details" | "tops" | "bottoms" | "socks" | "jewelry" | "bags_belts" | "accessory_headwear" | "two_shoe" | "side_view" | "front_view" | "logo_detail" | "fabric_texture" | "hardware_tag";
                };
            };
        };
        responses: {
            /** @description Accepted: one image per file, in the order sent, each processing */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        images: components["schemas"]["Generation"][];
                        /** @description Tokens taken for the whole batch */
                        tokensUsed: number;
                        newBalance: number | null;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The image is larger than 10MB. Please choose a smaller file. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "message": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file is not a JPEG, PNG, WebP, HEIC/HEIF or AVIF image (told by its bytes), or the body is not multipart/form-data */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "message": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The "side_view" option needs an active subscription. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The \"side_view\" option needs an active subscription.",
                     *       "message": "The \"side_view\" option needs an active subscription.",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImagesStatusId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageStatus"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such image, or not the caller's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImages: {
        parameters: {
            query?: {
                page?: number;
                /** @description Images per page */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of images */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        images: components["schemas"]["Image"][];
                        pagination: {
                            page: number;
                            total_pages: number;
                            has_prev: boolean;
                            has_next: boolean;
                            total: number;
                            limit: number;
                        };
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesUnlockWithTokensId: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlocked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description 100, or 0 on an unlimited plan or for a repeat */
                        tokens_used: number;
                        new_balance: number;
                        /** @description The unlocked result; a signed URL that expires */
                        image_url: string | null;
                        image: components["schemas"]["Image"];
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Fewer than 100 tokens (and no unlimited plan) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You don't have enough tokens to unlock this image.",
                     *       "message": "You don't have enough tokens to unlock this image.",
                     *       "code": "INSUFFICIENT_TOKENS"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such image, or not the caller's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The image is still processing (tokens are taken only for a finished result), or it failed: "This enhancement failed; there is nothing to unlock" */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Your image is still being made. You can unlock it as soon as it is ready.",
                     *       "message": "Your image is still being made. You can unlock it as soon as it is ready.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesAnonymousGenerate: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The photo: JPEG, PNG, WebP, HEIC/HEIF or AVIF (told by its bytes), at most 10 MB
                     */
                    file: string;
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    email: string;
                    /**
                     * @description A main type (clothing, accessory, shoes, details) or a sub-type; tops, jewelry, two_shoe and logo_detail are open to everyone, the other sub-types need an active subscription
                     * @default clothing
                     * @enum {string}
                     */
                    enhancement_type?: "clothing" | "accessory" | "shoes" | "details" | "tops" | "bottoms" | "socks" | "jewelry" | "bags_belts" | "accessory_headwear" | "two_shoe" | "side_view" | "front_view" | "logo_detail" | "fabric_texture" | "hardware_tag";
                };
            };
        };
        responses: {
            /** @description Accepted: poll GET /images/anonymous/status/{id} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Format: uuid */
                        enhancement_id: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The image is larger than 10MB. Please choose a smaller file. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "message": "The image is larger than 10MB. Please choose a smaller file.",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file is not a JPEG, PNG, WebP, HEIC/HEIF or AVIF image (told by its bytes), or the body is not multipart/form-data */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "message": "Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The "side_view" option needs an active subscription. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The \"side_view\" option needs an active subscription.",
                     *       "message": "The \"side_view\" option needs an active subscription.",
                     *       "code": "UNPROCESSABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many of a guest's tries: per client IP or e-mail address in the last hour, or still processing at once; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You've reached the limit of free tries for now. Sign up to get 200 free tokens, or try again in 42 minutes.",
                     *       "message": "You've reached the limit of free tries for now. Sign up to get 200 free tokens, or try again in 42 minutes.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImagesAnonymousStatusId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The enhancement */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnonymousEnhancement"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No guest's try with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesUnlockAnonymousWithTokensId: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Claimed and unlocked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description 100, or 0 on an unlimited plan or for a repeat */
                        tokens_used: number;
                        new_balance: number;
                        /** @description The unlocked result; a signed URL that expires */
                        image_url: string | null;
                        image: components["schemas"]["Image"];
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Fewer than 100 tokens (and no unlimited plan) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You don't have enough tokens to unlock this image.",
                     *       "message": "You don't have enough tokens to unlock this image.",
                     *       "code": "INSUFFICIENT_TOKENS"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No guest's try with this id, or one another user claimed */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The image is still processing (tokens are taken only for a finished result), or it failed: "This enhancement failed; there is nothing to unlock" */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Your image is still being made. You can unlock it as soon as it is ready.",
                     *       "message": "Your image is still being made. You can unlock it as soon as it is ready.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesEventsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ticket: string;
                        /** @description Seconds */
                        expires_in: number;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImagesEvents: {
        parameters: {
            query: {
                ticket: string;
                /** @description How long the stream stays open */
                seconds?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream: `ready` once, then an `image` event per change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, a forged or an expired ticket */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: the events ticket is invalid or has expired; ask for a new one",
                     *       "message": "Not authenticated: the events ticket is invalid or has expired; ask for a new one",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    username?: string;
                    /**
                     * Format: email
                     * @description The same as username, for clients that name the field so; username wins when both come
                     * @example ada@example.com
                     */
                    email?: string;
                    /** @example correct horse battery */
                    password: string;
                } | unknown | unknown;
            };
        };
        responses: {
            /** @description Admin token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @constant */
                        token_type: "bearer";
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid admin credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid admin credentials",
                     *       "message": "Invalid admin credentials",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/x-www-form-urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body form-encoded with Content-Type: application/x-www-form-urlencoded (got text/plain)",
                     *       "message": "Send the body form-encoded with Content-Type: application/x-www-form-urlencoded (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many attempts. Please try again in 60 seconds.",
                     *       "message": "Too many attempts. Please try again in 60 seconds.",
                     *       "code": "RATE_LIMITED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsers: {
        parameters: {
            query?: {
                /** @description Search text or field:value */
                q?: string;
                plan?: "all" | "lite" | "studio" | "unlimited" | "none";
                /** @description Signed up in the last N days */
                signup?: "7" | "30" | "90" | "all";
                /** @description high ≥ 100, medium 10-99, low 1-9, zero 0 */
                balance?: "all" | "high" | "medium" | "low" | "zero";
                /** @description 1-based page (default 1) */
                page?: number;
                /** @description Rows per page (default 50) */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUser"][] | {
                        users: components["schemas"]["AdminUser"][];
                        total: number;
                        page: number;
                        page_size: number;
                        /** @description False when total is an estimate (more than 10,000 matches are not counted one by one) */
                        total_exact: boolean;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminStatsSignups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sign-up figures */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        new_signups_24h: number;
                        total_users: number;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminStatsPaidUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Paid-user figures */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        paid_users_last_24h: number;
                        total_paid_users: number;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminStatsTrend: {
        parameters: {
            query?: {
                period?: "7d" | "30d" | "3m" | "1y" | "lifetime";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trend, oldest point first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        period: string;
                        points: {
                            date: string;
                            label: string;
                            signups: number;
                        }[];
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminStatsOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard figures (docs/decisions/0801-analytics.md defines each) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        new_signups_24h: number;
                        total_users: number;
                        paid_users_last_24h: number;
                        total_paid_users: number;
                        signups_this_month: number;
                        signups_last_month: number;
                        monthly_growth_rate: number;
                        user_retention_30d: number;
                        conversion_rate: number;
                        plan_distribution: {
                            lite: number;
                            studio: number;
                            bulk: number;
                            unlimited: number;
                            none: number;
                        };
                        anonymous_purchases: number;
                        anonymous_purchases_24h: number;
                        /** @description Chargebacks recorded (Stripe disputes) */
                        payment_disputes: number;
                        /** @description Chargebacks not yet won or lost */
                        payment_disputes_open: number;
                        /** @description Now minus the newest absorbed event; -1 before any */
                        projection_lag_seconds: number;
                        newest_event_at: string;
                        /** @description One line on the GPU pool, or "not in a cluster" */
                        gpu_pool: string;
                        gpu_pool_detail: {
                            in_cluster: boolean;
                            gpu_nodes: number;
                            gpu_nodes_ready: number;
                            worker_pods: number;
                            worker_pods_ready: number;
                            /** @description Generation jobs not yet taken by the workers; -1 when unknown */
                            queue_lag: number;
                            /** @description Why a part could not be read ("" when all was read) */
                            problem: string;
                        };
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersUnlimited: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    user_email: string;
                    granted: boolean;
                };
            };
        };
        responses: {
            /** @description Recorded; the profile follows within moments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description User not found, or (revoking) no unlimited plan granted by an administrator */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "User not found, or (revoking) no unlimited plan granted by an administrator",
                     *       "message": "User not found, or (revoking) no unlimited plan granted by an administrator",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already unlimited, or paying for another plan */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Already unlimited, or paying for another plan",
                     *       "message": "Already unlimited, or paying for another plan",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminTokensAdjust: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ada@example.com
                     */
                    user_email: string;
                    tokens: number;
                    /** @enum {string} */
                    action: "add" | "deduct";
                };
            };
        };
        responses: {
            /** @description Applied */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Added 50 tokens to ada@example.com (balance 250)",
                     *       "token_balance": 250,
                     *       "applied": 50
                     *     }
                     */
                    "application/json": {
                        message: string;
                        token_balance: number;
                        applied: number;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description User not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "User not found",
                     *       "message": "User not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminUserDelete: {
        parameters: {
            query: {
                email: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "User account deleted successfully"
                     *     }
                     */
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description User not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "User not found",
                     *       "message": "User not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminRefundsUnpaid: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The unpaid refunds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        refunds: {
                            /** Format: uuid */
                            image_id: string;
                            /** @description The owner (their account may be closed) */
                            user_id: string;
                            /** @description Tokens the failed generation took and could not give back */
                            tokens: number;
                            /** @description Why the ledger refused the refund */
                            reason: string;
                            /** @description When the refund was given up (ISO 8601) */
                            at: string | null;
                        }[];
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminDeadLetters: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dead-letter topics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dead_letters: {
                            /** @description The dead-letter topic, <topic>.dlq.<group> */
                            dead_letter_topic: string;
                            /** @description The topic the letters came from */
                            topic: string;
                            /** @description The consumer group that could not handle them */
                            group: string;
                            /** @description Letters waiting (not yet replayed or discarded) */
                            count: number;
                            /** @description When the oldest waiting letter was set aside (ISO 8601) */
                            oldest_at: string | null;
                            /** @description Why the newest waiting letter was set aside */
                            last_error: string | null;
                        }[];
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminDeadLettersReplay: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A dead-letter topic, <topic>.dlq.<group>; one of a real group and topic that has none yet answers count 0 */
                    dead_letter_topic: string;
                    /** @description At most this many, oldest first; absent: all that wait */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description Replayed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 1
                     *     }
                     */
                    "application/json": {
                        count: number;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No dead-letter topic billing.payment.v1.dlq.ledger */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "No dead-letter topic billing.payment.v1.dlq.ledger",
                     *       "message": "No dead-letter topic billing.payment.v1.dlq.ledger",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminDeadLettersDiscard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A dead-letter topic, <topic>.dlq.<group>; one of a real group and topic that has none yet answers count 0 */
                    dead_letter_topic: string;
                    /** @description At most this many, oldest first; absent: all that wait */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description Discarded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 1
                     *     }
                     */
                    "application/json": {
                        count: number;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No dead-letter topic billing.payment.v1.dlq.ledger */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "No dead-letter topic billing.payment.v1.dlq.ledger",
                     *       "message": "No dead-letter topic billing.payment.v1.dlq.ledger",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "google_client_id": "1234-abc.apps.googleusercontent.com",
                     *       "support_email": "support@example.com",
                     *       "pixels": {
                     *         "meta": null,
                     *         "tiktok": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description Google sign-in is offered only when set */
                        google_client_id: string | null;
                        support_email: string | null;
                        pixels: {
                            /** @description Meta (Facebook) pixel id; no pixel when null */
                            meta: string | null;
                            /** @description TikTok pixel id; no pixel when null */
                            tiktok: string | null;
                        };
                    };
                };
            };
        };
    };
    getPaymentsProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Products"];
                };
            };
        };
    };
    getStripeConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "publishableKey": "pk_local_flatlay",
                     *       "provider": "local"
                     *     }
                     */
                    "application/json": {
                        publishableKey: string;
                        /** @enum {string} */
                        provider: "stripe" | "local";
                    };
                };
            };
            /** @description This deployment takes no payments (never 503: the web app would sign the person out) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Payment System Not Configured",
                     *       "message": "Payment System Not Configured",
                     *       "code": "NOT_CONFIGURED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsCreateCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A price id from GET /payments/products */
                    price_id: string;
                    /** @enum {string} */
                    product_type?: "payment" | "subscription";
                    /** @description A promotion code; an unknown one is refused (400) */
                    promo_code?: string;
                };
            };
        };
        responses: {
            /** @description The checkout page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Where to send the browser: the checkout page */
                        url: string;
                    };
                };
            };
            /** @description An unknown price id ('Product not available. Please refresh and try again.'), an unknown plan ('Invalid Plan'), an unknown promo code, or a malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Product not available. Please refresh and try again.",
                     *       "message": "Product not available. Please refresh and try again.",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A plan checkout while a subscription is live */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You already have a subscription. Change or cancel it from your account page.",
                     *       "message": "You already have a subscription. Change or cancel it from your account page.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A price id from GET /payments/products */
                    price_id?: string;
                    /** @enum {string} */
                    product_type?: "payment" | "subscription";
                    /**
                     * @description subscription, with plan
                     * @enum {string}
                     */
                    type?: "subscription" | "payment";
                    /** @description lite_monthly, lite_yearly, studio_monthly or studio_yearly */
                    plan?: string;
                    /** @description A promotion code; an unknown one is refused (400) */
                    promo_code?: string;
                } | {
                    price_id: string;
                } | {
                    plan: string;
                };
            };
        };
        responses: {
            /** @description The checkout page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Where to send the browser: the checkout page */
                        url: string;
                    };
                };
            };
            /** @description An unknown price id ('Product not available. Please refresh and try again.'), an unknown plan ('Invalid Plan'), an unknown promo code, or a malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Product not available. Please refresh and try again.",
                     *       "message": "Product not available. Please refresh and try again.",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A plan checkout while a subscription is live */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You already have a subscription. Change or cancel it from your account page.",
                     *       "message": "You already have a subscription. Change or cancel it from your account page.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsCreateAnonymousPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The guest's try
                     */
                    enhancement_id: string;
                    success_url: string;
                    cancel_url: string;
                };
            };
        };
        responses: {
            /** @description The checkout page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkout_url: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No guest's try with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Still being made (pay once it is ready), failed ('This enhancement failed; there is nothing to pay for.'), or already paid or claimed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Your image is still being made. You can pay as soon as it is ready.",
                     *       "message": "Your image is still being made. You can pay as soon as it is ready.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 4096 bytes",
                     *       "message": "The request body is too large: at most 4096 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentsAnonymousEnhancementId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The enhancement */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnonymousEnhancement"];
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No guest's try with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsUnlockAnonymousEnhancementId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Paid and unlocked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        processed_url: string | null;
                    };
                };
            };
            /** @description Not unlocked yet: ask again in a moment */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /**
                         * @description pending_payment: a checkout was started, its confirmation has not arrived; unlocking: confirmed, the image service is unlocking it
                         * @enum {string}
                         */
                        status: "pending_payment" | "unlocking";
                        processed_url: null;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No guest's try with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No checkout was ever started for this try */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "No payment was started for this enhancement.",
                     *       "message": "No payment was started for this enhancement.",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postImagesUnlockId: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkout page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkout_url: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such image, or not the caller's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already unlocked; still being made ('Your image is still being made. You can pay as soon as it is ready.'); or the enhancement failed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This image is already unlocked",
                     *       "message": "This image is already unlocked",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsLockedImageTicketId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The image (or enhancement) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket, and the address to send the browser to */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ticket: string;
                        /** @description Seconds */
                        expires_in: number;
                        /** @description /api/payments/create-locked-image-payment?ticket=… */
                        payment_url: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such image, or not the caller's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already unlocked; still being made ('Your image is still being made. You can pay as soon as it is ready.'); or the enhancement failed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This image is already unlocked",
                     *       "message": "This image is already unlocked",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentsCreateLockedImagePayment: {
        parameters: {
            query: {
                ticket: string;
                return_url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the checkout page */
            303: {
                headers: {
                    /** @description The checkout page */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, a forged or an expired ticket */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: the payment link is invalid or has expired; start the unlock again",
                     *       "message": "Not authenticated: the payment link is invalid or has expired; start the unlock again",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such image, or not the ticket holder's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Image not found",
                     *       "message": "Image not found",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already unlocked; still being made ('Your image is still being made. You can pay as soon as it is ready.'); or the enhancement failed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This image is already unlocked",
                     *       "message": "This image is already unlocked",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription (hasSubscription false without one) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "hasSubscription": true,
                     *       "subscriptionPlan": "studio",
                     *       "status": "active",
                     *       "cancelAtPeriodEnd": false,
                     *       "currentPeriodEnd": 1767225600,
                     *       "billingPeriod": "monthly"
                     *     }
                     */
                    "application/json": components["schemas"]["SubscriptionStatus"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSubscriptionCancel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled at period end */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You have no active subscription to cancel. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You have no active subscription to cancel.",
                     *       "message": "You have no active subscription to cancel.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The plan was granted by an administrator: there is no payment to cancel */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The plan was granted by an administrator: there is no payment to cancel",
                     *       "message": "The plan was granted by an administrator: there is no payment to cancel",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCreateBillingPortal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to send the browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        url: string;
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You have no billing account yet. Subscribe or buy a token pack first. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You have no billing account yet. Subscribe or buy a token pack first.",
                     *       "message": "You have no billing account yet. Subscribe or buy a token pack first.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksStripe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                    type: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Handled (or handled before) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                        duplicate: boolean;
                        type: string;
                    };
                };
            };
            /** @description No or a wrong signature, or a body that is not an event */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid webhook signature",
                     *       "message": "Invalid webhook signature",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 524288 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 524288 bytes",
                     *       "message": "The request body is too large: at most 524288 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook secret is configured */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Stripe webhooks are not configured",
                     *       "message": "Stripe webhooks are not configured",
                     *       "code": "NOT_CONFIGURED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsKeysStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every setting, in the page order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "key": "openai_api_key",
                     *         "status": "active"
                     *       },
                     *       {
                     *         "key": "stripe_public_key",
                     *         "status": "unknown"
                     *       },
                     *       {
                     *         "key": "stripe_lite_price_id",
                     *         "status": "inactive"
                     *       }
                     *     ]
                     */
                    "application/json": {
                        /** @description {product}_api_key (product: the generative provider configured on the server), stripe_public_key, stripe_lite_price_id, stripe_pro_price_id, stripe_studio_price_id or stripe_agency_price_id */
                        key: string;
                        /**
                         * @description inactive: not set; unknown: set but not tested since it changed; active / invalid: the newest Test of its service passed / failed
                         * @enum {string}
                         */
                        status: "active" | "inactive" | "invalid" | "unknown";
                    }[];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The {product} of {product}_api_key */
                        generative_provider: string;
                        generative_api_url: string;
                        /** @description Whether the server holds a Stripe secret key (STRIPE_SECRET_KEY); never the key */
                        stripe_secret_key_configured: boolean;
                        stripe_api_url: string;
                        /** @description Whether secrets can be saved (SETTINGS_ENCRYPTION_KEY is configured) */
                        encryption_configured: boolean;
                        /** @description Setting to value as the page shows it ("" when not set; a secret as ****1234) */
                        keys: {
                            [key: string]: string;
                        };
                        settings: {
                            /** @description {product}_api_key (product: the generative provider configured on the server), stripe_public_key, stripe_lite_price_id, stripe_pro_price_id, stripe_studio_price_id or stripe_agency_price_id */
                            key: string;
                            value: string;
                            secret: boolean;
                            is_set: boolean;
                            /**
                             * @description inactive: not set; unknown: set but not tested since it changed; active / invalid: the newest Test of its service passed / failed
                             * @enum {string}
                             */
                            status: "active" | "inactive" | "invalid" | "unknown";
                            /** @description The service whose Test covers the key */
                            service: string;
                            /** @description ISO 8601 of the last change, or "" */
                            updated_at: string;
                        }[];
                        testable_services: string[];
                    };
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSettingsKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    stripe_public_key?: string;
                    stripe_lite_price_id?: string;
                    stripe_pro_price_id?: string;
                    stripe_studio_price_id?: string;
                    stripe_agency_price_id?: string;
                } & {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description Saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Settings saved",
                     *       "changed": [
                     *         "stripe_lite_price_id"
                     *       ],
                     *       "unchanged": [
                     *         "openai_api_key"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        message: string;
                        changed: string[];
                        unchanged: string[];
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown setting, or the price id of a plan that is not sold */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unknown setting, or the price id of a plan that is not sold",
                     *       "message": "Unknown setting, or the price id of a plan that is not sold",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A masked value that does not match the stored key (the form is out of date) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "A masked value that does not match the stored key (the form is out of date)",
                     *       "message": "A masked value that does not match the stored key (the form is out of date)",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The request body is too large: at most 16384 bytes",
                     *       "message": "The request body is too large: at most 16384 bytes",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "message": "Send the body as JSON with Content-Type: application/json (got text/plain)",
                     *       "code": "UNSUPPORTED_MEDIA_TYPE"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SETTINGS_ENCRYPTION_KEY is not set: secrets cannot be stored */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "SETTINGS_ENCRYPTION_KEY is not set: secrets cannot be stored",
                     *       "message": "SETTINGS_ENCRYPTION_KEY is not set: secrets cannot be stored",
                     *       "code": "NOT_CONFIGURED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSettingsTestService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description e.g. openai or stripe */
                service: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The outcome */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": false,
                     *       "message": "Connection failed: openai refused the key: HTTP 401"
                     *     }
                     */
                    "application/json": {
                        success: boolean;
                        message: string;
                    };
                };
            };
            /** @description The request does not match this operation: the message names the field and the rule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Please enter a valid email address",
                     *       "message": "Please enter a valid email address",
                     *       "code": "INVALID_ARGUMENT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists */
            401: {
                headers: {
                    /** @description The scheme to authenticate with */
                    "WWW-Authenticate": "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated: Authentication required",
                     *       "message": "Not authenticated: Authentication required",
                     *       "code": "UNAUTHENTICATED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin authentication required (a token without the admin role) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Admin authentication required",
                     *       "message": "Admin authentication required",
                     *       "code": "PERMISSION_DENIED"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown service */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unknown service",
                     *       "message": "Unknown service",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Administrator accounts cannot be deleted",
                     *       "message": "Administrator accounts cannot be deleted",
                     *       "code": "CONFLICT"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
