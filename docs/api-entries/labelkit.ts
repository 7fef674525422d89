/**
 * The client of the labeling service's GraphQL API (`createLabelingClient`), its errors and their codes, and the label-set helpers.
 *
 * @module labelkit
 */
export * from '../../src/client/index.js';
