// Loaded on demand (the first time the checkout form validates): zod and the contact schema cost
// about 33 KB gzipped, more than the whole checkout page, and the page can render without them.
export { ZCheckoutContact } from '@marquee/core';
