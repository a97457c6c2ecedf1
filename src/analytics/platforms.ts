// The platforms are defined with the rows the store answers; the analytics read them from there.
export { PLATFORMS, type Platform } from '../store/interfaces/visibility-rows.js';
