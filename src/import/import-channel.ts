import diagnostics from 'node:diagnostics_channel';

/**
 * Every import of this process, once it ends, on a diagnostics channel: the import knows nothing of
 * who listens (the metrics of src/http/metrics/ do), and publishing costs nothing without listeners.
 */
export interface ImportFinished {
  /** `committed`: every line written; `rejected`: nothing written (a bad line, a refused lock). */
  outcome: 'committed' | 'rejected';
  /** Records read (non-blank lines) of a committed import; 0 for a rejected one. */
  records: number;
  seconds: number;
}

const finished = diagnostics.channel('workspace-api:import-finished');

export function reportImportFinished(event: ImportFinished): void {
  if (finished.hasSubscribers) finished.publish(event);
}

/** Calls `listener` for each import that ends in this process until the returned function is called. */
export function onImportFinished(listener: (event: ImportFinished) => void): () => void {
  const subscriber = (message: unknown): void => listener(message as ImportFinished);
  finished.subscribe(subscriber);
  return () => finished.unsubscribe(subscriber);
}
