import { createModelHandler, createSampleModel, serveFetchHandler } from '../../src/model/index.js';
import type { SpanRequest } from '../../src/model/index.js';

/** A model endpoint for tests that records requests and can misbehave on purpose. */
export interface StubModel {
  url: string;
  requests: SpanRequest[];
  /** Responses to give instead of the sample model's, in order (consumed). */
  script: Array<{ status: number; body?: string } | { hangMs: number } | ((req: SpanRequest) => unknown)>;
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startStubModel(secretKey: string, delayMs = 0): Promise<StubModel> {
  const sample = createModelHandler(createSampleModel(), { secretKey });
  let inFlight = 0;
  const stub: StubModel = { url: '', requests: [], script: [], maxInFlight: 0, close: async () => {} };
  const served = await serveFetchHandler(
    async (request) => {
      inFlight++;
      stub.maxInFlight = Math.max(stub.maxInFlight, inFlight);
      try {
        const body = await request.clone().json().catch(() => null);
        stub.requests.push(body as SpanRequest);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        const step = stub.script.shift();
        if (typeof step === 'function') return Response.json(step(body as SpanRequest));
        if (step && 'hangMs' in step) await new Promise((r) => setTimeout(r, step.hangMs));
        if (step && 'status' in step) return new Response(step.body ?? `status ${step.status}`, { status: step.status });
        return await sample(request);
      } finally {
        inFlight--;
      }
    },
    0,
    '127.0.0.1',
  );
  stub.url = `${served.url}/predict`;
  stub.close = served.close;
  return stub;
}
