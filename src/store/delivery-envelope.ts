/** The body of every delivery (the AsyncAPI `WebhookEvent` envelope), serialised once at enqueue time. */
export interface DeliveryEnvelope<Data = object> {
  event: string;
  timestamp: string;
  workspace_id: string;
  is_test: boolean;
  data: Data;
}

/** The exact bytes a delivery sends; the property order is the contract's. */
export function serializeEnvelope(envelope: DeliveryEnvelope): string {
  const { event, timestamp, workspace_id, is_test, data } = envelope;
  return JSON.stringify({ event, timestamp, workspace_id, is_test, data });
}
