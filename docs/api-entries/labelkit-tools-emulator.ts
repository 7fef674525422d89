/**
 * A local emulator of the labeling service, for trying labelkit and for tests.
 *
 * @module labelkit-tools/emulator
 */
export * from '../../src/emulator/index.js';
