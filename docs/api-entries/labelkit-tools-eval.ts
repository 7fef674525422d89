/**
 * Scoring a model's labels against a project's gold.
 *
 * @module labelkit-tools/eval
 */
export * from '../../src/eval/index.js';
