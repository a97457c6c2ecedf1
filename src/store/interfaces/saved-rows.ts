// What saving an imported record did. Records arrive whole through the import: each write replaces
// the stored row, and an identical record writes nothing (so re-importing a file changes nothing).

export type SaveOutcome = 'inserted' | 'updated' | 'unchanged';

/** What saving a record did, and the lifecycle state (status or stage) it had before, if it existed. */
export interface SaveResult<State> {
  outcome: SaveOutcome;
  previous: State | undefined;
}
