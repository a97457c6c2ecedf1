// The delivery side of webhooks, as the rest of the service uses it.
export { createDeliveryDispatcher, type DeliveryDispatcher, type DispatcherDeps } from './dispatcher.js';
export {
  getDelivery, listDeliveries, redeliver, recoverFailedSince, toDeliveryView,
} from './deliveries.js';
export { sendTestDelivery, type TestDeliveryResult } from './test-delivery.js';
export { SAMPLE_EVENT_DATA, ZERO_UUID } from './samples.js';
export { RESPONSE_BODY_LIMIT_BYTES } from './http-post.js';
