import type { StoredSpan } from './types.js';

/** A span as the store is given it: the model's entity (`layer` may be absent, read as 0). */
export interface SpanInput {
  label: string;
  start_char: number;
  end_char: number;
  confidence_score?: number;
  layer?: number;
}

/** Numbers kept per span: label index, start, end, layer, confidence (NaN when absent). */
const STRIDE = 5;
/** Spans a document's arena first holds. */
const FIRST_CAPACITY = 64;

/**
 * Label names shared by the documents of one copy: each name is kept once and spans refer to it
 * by index.
 */
export class LabelNames {
  private readonly names: string[] = [];
  private readonly indexes = new Map<string, number>();

  /**
   * @param name - a label name exactly as the model gave it
   * @returns its index, the same for every equal name
   */
  indexOf(name: string): number {
    let index = this.indexes.get(name);
    if (index === undefined) {
      index = this.names.length;
      this.names.push(name);
      this.indexes.set(name, index);
    }
    return index;
  }

  /**
   * @param index - an index given by {@link LabelNames.indexOf}
   * @returns the name
   */
  nameAt(index: number): string {
    return this.names[index]!;
  }
}

/**
 * The labels of one document of one copy, by line, held in flat typed arrays instead of an object
 * per span.
 *
 * @remarks A span costs 40 bytes (five float64 numbers: label index, start, end, layer,
 * confidence) and a line 8 (where its spans start and how many there are), against about 240
 * bytes per line as objects. Setting a line again appends its new spans and leaves the old ones
 * unreferenced; the arena is compacted when unreferenced spans outnumber the live ones. Reads
 * build {@link StoredSpan} objects, equal to what was stored (`layer` defaulted to 0,
 * `confidence_score` only when given).
 * @example
 * ```ts
 * const doc = new CompactLines(new LabelNames(), 2);
 * doc.set(1, [{ label: 'PERSON', start_char: 0, end_char: 3 }]);
 * doc.get(1); // [{ label: 'PERSON', start_char: 0, end_char: 3, layer: 0 }]
 * ```
 */
export class CompactLines {
  /** Per line: first span index, then span count; -1 as first = the line was never set. */
  private index: Int32Array;
  private spans = new Float64Array(FIRST_CAPACITY * STRIDE);
  /** Spans written into the arena (live or not). */
  private used = 0;
  /** Spans referenced by a line. */
  private live = 0;

  /**
   * @param labels - the label names of the copy this document belongs to
   * @param lineCount - the document's number of lines (more are accepted; the index grows)
   */
  constructor(
    private readonly labels: LabelNames,
    lineCount: number,
  ) {
    this.index = new Int32Array(Math.max(1, lineCount) * 2).fill(-1);
  }

  /**
   * Sets (replaces) the spans of one line.
   *
   * @param line - the zero-based line number
   * @param entities - its spans, possibly none
   */
  set(line: number, entities: readonly SpanInput[]): void {
    if (line * 2 + 1 >= this.index.length) this.growIndex(line);
    if (this.index[line * 2]! >= 0) {
      this.live -= this.index[line * 2 + 1]!;
      this.index[line * 2] = -1; // its old spans are dead now, and a compaction below drops them
    }
    if (this.used + entities.length > this.spans.length / STRIDE) this.makeRoom(entities.length);
    let at = this.used * STRIDE;
    for (const e of entities) {
      this.spans[at] = this.labels.indexOf(e.label);
      this.spans[at + 1] = e.start_char;
      this.spans[at + 2] = e.end_char;
      this.spans[at + 3] = e.layer ?? 0;
      this.spans[at + 4] = e.confidence_score ?? Number.NaN;
      at += STRIDE;
    }
    this.index[line * 2] = this.used;
    this.index[line * 2 + 1] = entities.length;
    this.used += entities.length;
    this.live += entities.length;
  }

  /**
   * @param line - the zero-based line number
   * @returns the line's spans as new objects, or undefined when the line was never set
   */
  get(line: number): StoredSpan[] | undefined {
    if (line < 0 || line * 2 + 1 >= this.index.length) return undefined;
    const first = this.index[line * 2]!;
    if (first < 0) return undefined;
    const count = this.index[line * 2 + 1]!;
    const out: StoredSpan[] = new Array<StoredSpan>(count);
    for (let i = 0, at = first * STRIDE; i < count; i++, at += STRIDE) {
      const confidence = this.spans[at + 4]!;
      out[i] = {
        label: this.labels.nameAt(this.spans[at]!),
        start_char: this.spans[at + 1]!,
        end_char: this.spans[at + 2]!,
        layer: this.spans[at + 3]!,
        ...(!Number.isNaN(confidence) && { confidence_score: confidence }),
      };
    }
    return out;
  }

  /**
   * Calls `visit` for every line that was set, in line order.
   *
   * @param visit - receives the line number and its spans
   */
  forEachLine(visit: (line: number, entities: StoredSpan[]) => void): void {
    const lines = this.index.length / 2;
    for (let line = 0; line < lines; line++) {
      if (this.index[line * 2]! >= 0) visit(line, this.get(line)!);
    }
  }

  private growIndex(line: number): void {
    const next = new Int32Array(Math.max(this.index.length * 2, (line + 1) * 2)).fill(-1);
    next.set(this.index);
    this.index = next;
  }

  /** Drops unreferenced spans when they outnumber the live ones, else doubles the arena. */
  private makeRoom(adding: number): void {
    const compact = this.used - this.live > this.live;
    const needed = (compact ? this.live : this.used) + adding;
    let capacity = this.spans.length / STRIDE;
    while (capacity < needed) capacity *= 2;
    const next = new Float64Array(capacity * STRIDE);
    if (!compact) next.set(this.spans.subarray(0, this.used * STRIDE));
    else {
      let to = 0;
      for (let line = 0; line < this.index.length / 2; line++) {
        const first = this.index[line * 2]!;
        if (first < 0) continue;
        const count = this.index[line * 2 + 1]!;
        next.set(this.spans.subarray(first * STRIDE, (first + count) * STRIDE), to * STRIDE);
        this.index[line * 2] = to;
        to += count;
      }
      this.used = to;
    }
    this.spans = next;
  }
}
