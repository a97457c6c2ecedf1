import type { components } from '../../../generated/openapi.js';

// The contract's enums the account rows carry, apart so that the key rows can name them without
// importing the account store's interface (which names the key rows in turn).
export type SubscriptionStatus = components['schemas']['SubscriptionStatus'];
export type Role = components['schemas']['MemberRole'];
