/**
 * Reading a project back over the client: copies and gold, lines, labels a few documents ahead, the label tree.
 *
 * @module labelkit/labels
 */
export * from '../../src/labels/index.js';
