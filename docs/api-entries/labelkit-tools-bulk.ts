/**
 * Many-project runs: one job per project, started exactly once, with a journal (memory, file or PostgreSQL).
 *
 * @module labelkit-tools/bulk
 */
export * from '../../src/bulk/index.js';
