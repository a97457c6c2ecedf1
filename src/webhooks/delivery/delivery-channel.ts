import diagnostics from 'node:diagnostics_channel';

/**
 * What the delivery loop of this process does, on diagnostics channels: the dispatcher knows
 * nothing of who listens (the metrics of src/http/metrics/ do), and publishing costs nothing
 * without listeners.
 */
export interface AttemptRecorded {
  /** `delivered`; `retry`: failed, another attempt is scheduled; `failed`: the last attempt failed. */
  outcome: 'delivered' | 'retry' | 'failed';
}

export interface DeliveriesClaimed {
  /** Age of the oldest event among the deliveries one poll took: how late they go out. */
  oldestAgeSeconds: number;
}

const attempts = diagnostics.channel('workspace-api:webhook-attempt-recorded');
const claims = diagnostics.channel('workspace-api:webhook-deliveries-claimed');

export function reportAttemptRecorded(event: AttemptRecorded): void {
  if (attempts.hasSubscribers) attempts.publish(event);
}

/** Whether anyone listens to claims: working out the age reads each claimed payload. */
export function claimsObserved(): boolean {
  return claims.hasSubscribers;
}

export function reportDeliveriesClaimed(event: DeliveriesClaimed): void {
  if (claims.hasSubscribers) claims.publish(event);
}

/** Calls the listeners for what the delivery loop does until the returned function is called. */
export function onDeliveryActivity(listeners: {
  attemptRecorded: (event: AttemptRecorded) => void;
  deliveriesClaimed: (event: DeliveriesClaimed) => void;
}): () => void {
  const onAttempt = (message: unknown): void => listeners.attemptRecorded(message as AttemptRecorded);
  const onClaim = (message: unknown): void => listeners.deliveriesClaimed(message as DeliveriesClaimed);
  attempts.subscribe(onAttempt);
  claims.subscribe(onClaim);
  return () => {
    attempts.unsubscribe(onAttempt);
    claims.unsubscribe(onClaim);
  };
}
