// What the hero does once a visitor acts (picks a photo, enhances, pays, downloads): a chunk of its
// own, loaded on the first such act, so the home page's initial JavaScript holds the hero's form and
// preview only (ADR 0715). EnhanceHero imports it with `import()`; nothing else should.
export { trackGuestUnlock } from '../../lib/purchase-tracking';
export { downloadResult } from './download';
export { DASHBOARD_FLOW, generateAsGuest, generateSignedIn, HERO_FLOW } from './hero-generation';
export { HEIC_FAILURE, prepareUpload } from './prepare-file';
export { askGuestUnlock, payToUnlockGuest, unlockByPayment } from './unlock';
