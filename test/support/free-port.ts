/**
 * `freePort()`: a loopback port nobody listens on now, for a server a test starts later at an
 * address it gave out first. One definition, the one the PostgreSQL cluster script picks its port with.
 */
export { freePort } from '../../scripts/postgres-cluster.js';
