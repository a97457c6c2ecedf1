import type { DemoDataLoader } from './bootstrap.js';

/** Fills the demo workspace with generated data; the import areas plug their records in here. */
export const loadDemoData: DemoDataLoader = () => {};
