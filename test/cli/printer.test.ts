import { describe, expect, it } from 'vitest';
import { createPrinter } from '../../src/cli/io.js';
import { own } from '../../src/shared/redact.js';
import { fakeIo } from '../support/fakeIo.js';

describe('createPrinter', () => {
  const value = { a: 1, list: [true, null, 'x', { b: [] }], empty: {}, skipped: undefined, when: new Date(0), 'not a name': 'v', nested: { secretKey: 'secret', endpoint: 'http://h/?k=secret' } };

  it('prints JSON exactly as JSON.stringify does, one line or indented, when no secret is in it', () => {
    const io = fakeIo();
    const printer = createPrinter(io);
    printer.json(value);
    printer.json(value, { indent: 2 });
    printer.json([]);
    expect(io.out()).toBe(`${JSON.stringify(value)}\n${JSON.stringify(value, null, 2)}\n[]\n`);
    // Flat objects of plain values (a plan's lines), and ones that only look flat.
    const flat = [{ event: 'plan', n: -0, big: 1.5e300, yes: true, no: null, '2': 'first', s: 'a"\\\u0001\u2028' }, { n: Number.NaN }, { u: undefined, v: 1 }, { toJSON: () => 'x' }, Object.create({ inherited: 1 }), { d: new Date(0) }];
    const again = fakeIo();
    const printed = createPrinter(again);
    for (const v of flat) printed.json(v);
    expect(again.out()).toBe(flat.map((v) => `${JSON.stringify(v)}\n`).join(''));
  });

  it('redacts the values and keys of JSON, but not labelkit’s field names such as secretKey', () => {
    const io = fakeIo();
    const printer = createPrinter(io);
    printer.addSecret('secret');
    printer.json(value);
    printer.json({ secret: 1, 'x secret': 2, x_secret: 3 });
    const [first, second] = io.out().trim().split('\n');
    expect(JSON.parse(first!)).toMatchObject({ nested: { secretKey: '***', endpoint: 'http://h/?k=***' } });
    expect(second).toBe('{"***":1,"x ***":2,"x_***":3}');
  });

  it('prints many JSON values one a line, each as json() prints it, secrets redacted, in one write for a few', () => {
    const values = [value, { event: 'plan', projectId: 'p-secret', jobId: 'job-secret', reason: 'job job-secret started' }, { secret: 1 }, []];
    const one = fakeIo();
    const byOne = createPrinter(one);
    byOne.addSecret('secret');
    for (const v of values) byOne.json(v);
    const writes: string[] = [];
    const io = { ...fakeIo(), stdout: { write: (s: string) => void writes.push(s) } };
    const printer = createPrinter(io);
    printer.addSecret('secret');
    printer.jsonLines(values);
    expect(writes).toEqual([one.out()]);
    expect(writes[0]!.split('\n')[1]).toBe('{"event":"plan","projectId":"p-***","jobId":"job-***","reason":"job job-*** started"}');
    // Many lines: a write per 64 Ki characters, not per line.
    writes.length = 0;
    printer.jsonLines(Array.from({ length: 10_000 }, (_, i) => ({ event: 'plan', projectId: `p-${i}`, reason: 'not in the journal' })));
    expect(writes.join('').split('\n')).toHaveLength(10_001);
    expect(writes.length).toBeLessThan(20);
  });

  it('prints a plain string redacted whole, and an own text with its fixed words kept', () => {
    const io = fakeIo();
    const printer = createPrinter(io);
    printer.addSecret('secret');
    printer.err('wrong secret');
    printer.err(own`wrong secret: ${'secret'}`);
    expect(io.err()).toBe('wrong ***\nwrong secret: ***\n');
  });
});
