/**
 * labelkit/model: build and test a model endpoint of the span-labeling contract.
 *
 * @packageDocumentation
 */
export { createModelHandler } from './handler.js';
export type { ModelHandlerOptions } from './handler.js';
export { startModelServer } from './server.js';
export { serveFetchHandler } from '../shared/serveFetchHandler.js';
export type { ServedHandler } from '../shared/serveFetchHandler.js';
export type { ModelServerOptions, RunningModelServer } from './server.js';
export { createSampleModel, DEMO_TERMS } from './sampleModel.js';
export type { SampleModelOptions } from './sampleModel.js';
export { validateSpanRequest, validateSpanResponse } from './contract.js';
export type { ContractProblem, Predict, SpanEntity, SpanRequest, SpanResponse, SpanResponseCheckOptions, SpanSentence } from './contract.js';
