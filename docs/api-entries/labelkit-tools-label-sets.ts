/**
 * Label sets as code: read a file, plan the changes against a project, apply them.
 *
 * @module labelkit-tools/label-sets
 */
export * from '../../src/labelSets/index.js';
