import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GetJobsDocument } from 'labelkit/documents';
import { createLabelingClient } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { within } from '../support/testEnvironment.js';

// A call that ends before its answer (time-out, signal, close()) aborts its HTTP request: the
// server sees the connection close with its answer unsent. An answered request is not aborted.
let url: string;
let close: () => Promise<void>;
let client: LabelingClient;
/** Request ids whose connection closed before the server answered them. */
let cutOff: string[];
/** Resolved with each request id as it arrives (the server answers only `x-answer: yes` requests). */
let arrived: (id: string) => void;
let arrivals: string[];

beforeEach(async () => {
  cutOff = [];
  arrivals = [];
  arrived = (id) => arrivals.push(id);
  const server = createServer((req, res) => {
    const id = String(req.headers['x-request-id']);
    res.on('close', () => {
      if (!res.writableEnded) cutOff.push(id);
    });
    req.resume();
    req.on('end', () => {
      arrived(id);
      if (req.headers['x-answer'] === 'yes') res.end(JSON.stringify({ data: { getJobs: [] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

afterEach(async () => {
  client.close();
  await close();
});

it('aborts the request of a call that times out, is aborted or is closed, and not of an answered one', async () => {
  client = createLabelingClient({ url, token: 't', retry: { maxAttempts: 1 } });
  // The server never answers: the time-out ends the call. Long enough for the request to arrive
  // on a loaded machine (at 150 ms, at load 20, it ended before the request reached the server).
  const timedOut = await client.request(GetJobsDocument, { jobIds: ['j1'] }, { timeoutMs: within(1000) }).catch((e: unknown) => e);
  expect(timedOut).toMatchObject({ code: 'TIMEOUT' });

  const controller = new AbortController();
  const aborted = client.request(GetJobsDocument, { jobIds: ['j2'] }, { signal: controller.signal }).catch((e: unknown) => e);
  await vi.waitFor(() => expect(arrivals).toHaveLength(2));
  controller.abort();
  expect(await aborted).toMatchObject({ code: 'ABORTED' });

  const closed = client.request(GetJobsDocument, { jobIds: ['j3'] }).catch((e: unknown) => e);
  await vi.waitFor(() => expect(arrivals).toHaveLength(3));
  client.close();
  expect(await closed).toMatchObject({ code: 'ABORTED' });

  await vi.waitFor(() => expect(cutOff).toEqual(arrivals));

  client = createLabelingClient({ url, token: 't', headers: { 'X-Answer': 'yes' } });
  await expect(client.request(GetJobsDocument, { jobIds: ['j4'] })).resolves.toEqual({ getJobs: [] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(arrivals).toHaveLength(4);
  expect(cutOff).toHaveLength(3);
});
