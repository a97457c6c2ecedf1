// The delivery side of webhooks, as the rest of the service uses it.
export { createDeliveryDispatcher, type DeliveryDispatcher,  } from './dispatcher.js';
export {
  getDelivery, listDeliveries, redeliver, recoverFailedSince, 
} from './deliveries.js';
export { sendTestDelivery,  } from './test-delivery.js';
export { SAMPLE_EVENT_DATA, ZERO_UUID } from './samples.js';
;
