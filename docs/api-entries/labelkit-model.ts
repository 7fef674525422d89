/**
 * A kit for writing the model endpoint the service calls: the handler, its contract checks and a sample model (Node only).
 *
 * @module labelkit/model
 */
export * from '../../src/model/index.js';
