/**
 * Values the whole service shares across its instances (the cursor secret): each is written once,
 * by whichever instance needs it first, and never changes after.
 */
export interface ServiceSettingStore {
  /**
   * The stored value of `name`; when there is none yet, `candidate` is stored and returned.
   * Instances starting together all get the one value that was stored first.
   */
  keepFirst(name: string, candidate: string, now: Date): Promise<string>;
}
