/**
 * The version of a workspace's imported data: 0 until an import changes something, then raised
 * by each such import inside its transaction, so it moves exactly when the data does.
 */
export interface DataVersionStore {
  get(workspaceId: string): Promise<number>;
  raise(workspaceId: string): Promise<void>;
}
