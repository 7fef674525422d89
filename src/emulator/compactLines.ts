import type { StoredSpan } from './types.js';

/** A span as the store is given it: the model's entity (`layer` may be absent, read as 0). */
export interface SpanInput {
  label: string;
  start_char: number;
  end_char: number;
  confidence_score?: number;
  layer?: number;
}

/** Growth factor of the span columns when full. */
const GROWTH = 1.5;

const isInt32 = (n: number) => (n | 0) === n;

/**
 * How the spans of a {@link CompactLines} refer to their labels: by a small integer that this
 * index gives for a label as the model named it, and turns back into the name to show.
 *
 * @remarks {@link LabelNames} keeps names as given; the store's `LabelRefs` (labelRefs.ts) binds
 * each to a label item's id, so that a rename shows the new name and a removal can find the spans.
 */
export interface LabelIndex {
  /**
   * @param name - a label name as the model gave it
   * @returns the number the spans store for it, the same for the same name (until the index says
   * otherwise, e.g. after a label set changed)
   */
  indexOf(name: string): number;
  /**
   * @param index - a number given by {@link LabelIndex.indexOf}
   * @returns the name to show for it
   */
  nameAt(index: number): string;
}

/**
 * Label names shared by the documents of one copy: each name is kept once and spans refer to it
 * by index.
 */
export class LabelNames implements LabelIndex {
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
 * The labels of one document of one copy, by line, held in typed-array columns instead of an
 * object per span.
 *
 * @remarks A span costs 12 bytes (label index, start, end as int32), plus 8 for its confidence
 * and 8 for its layer only once some span of the document has a confidence or a layer other than
 * 0; a line costs 8 (where its spans start, how many there are). As objects it was about 240
 * bytes per line. Setting a line again appends its new spans and leaves the old ones
 * unreferenced; when the columns are full and unreferenced spans outnumber the live ones, they
 * are compacted instead of grown. Reads build {@link StoredSpan} objects equal to what was stored
 * (`layer` defaulted to 0, `confidence_score` only when given).
 * @example
 * ```ts
 * const doc = new CompactLines(new LabelNames(), 2);
 * doc.set(1, [{ label: 'PERSON', start_char: 0, end_char: 3 }]);
 * doc.get(1); // [{ label: 'PERSON', start_char: 0, end_char: 3, layer: 0 }]
 * ```
 */
export class CompactLines {
  /** Per line: first span, then span count; -1 as first = the line was never set. */
  private index: Int32Array;
  private label: Int32Array;
  private start: Int32Array;
  private end: Int32Array;
  /** NaN = no confidence; null until a span has one. */
  private confidence: Float64Array | null = null;
  /** null until a span has a layer other than 0. */
  private layer: Float64Array | null = null;
  /** Spans written into the columns (live or not). */
  private used = 0;
  /** Spans referenced by a line. */
  private live = 0;

  /**
   * @param labels - the label names of the copy this document belongs to
   * @param lineCount - the document's number of lines (more are accepted; the index grows); the
   * columns first hold one span per line
   */
  constructor(
    private readonly labels: LabelIndex,
    lineCount: number,
  ) {
    const lines = Math.max(1, lineCount);
    this.index = new Int32Array(lines * 2).fill(-1);
    this.label = new Int32Array(lines);
    this.start = new Int32Array(lines);
    this.end = new Int32Array(lines);
  }

  /**
   * Sets (replaces) the spans of one line.
   *
   * @param line - the zero-based line number
   * @param entities - its spans, possibly none
   * @throws RangeError when a `start_char` or `end_char` is not a 32-bit integer (the span
   * contract's offsets always are)
   */
  set(line: number, entities: readonly SpanInput[]): void {
    for (const e of entities) {
      if (!isInt32(e.start_char) || !isInt32(e.end_char)) throw new RangeError(`start_char and end_char must be integer character offsets, got ${e.start_char} and ${e.end_char}`);
    }
    if (line * 2 + 1 >= this.index.length) this.growIndex(line);
    if (this.index[line * 2]! >= 0) {
      this.live -= this.index[line * 2 + 1]!;
      this.index[line * 2] = -1; // its old spans are dead now, and a compaction below drops them
    }
    if (this.used + entities.length > this.label.length) this.makeRoom(entities.length);
    let at = this.used;
    for (const e of entities) {
      this.label[at] = this.labels.indexOf(e.label);
      this.start[at] = e.start_char;
      this.end[at] = e.end_char;
      if (e.confidence_score !== undefined) (this.confidence ??= new Float64Array(this.label.length).fill(Number.NaN))[at] = e.confidence_score;
      else if (this.confidence) this.confidence[at] = Number.NaN;
      if (e.layer !== undefined && e.layer !== 0) (this.layer ??= new Float64Array(this.label.length))[at] = e.layer;
      else if (this.layer) this.layer[at] = 0;
      at++;
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
    for (let i = 0, at = first; i < count; i++, at++) {
      const confidence = this.confidence ? this.confidence[at]! : Number.NaN;
      out[i] = {
        label: this.labels.nameAt(this.label[at]!),
        start_char: this.start[at]!,
        end_char: this.end[at]!,
        layer: this.layer ? this.layer[at]! : 0,
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

  /**
   * Removes every span whose label the predicate picks, from every line.
   *
   * @param drop - receives a span's label number (from the {@link LabelIndex}) and says whether
   * the span goes
   * @returns how many spans were removed
   * @remarks A line keeps its other spans in order, and stays set even when none is left (it was
   * labelled, now with nothing). The removed spans' room is reclaimed by the next compaction.
   * @example
   * ```ts
   * const removed = doc.removeLabels((label) => label === 3);
   * ```
   */
  removeLabels(drop: (label: number) => boolean): number {
    let removed = 0;
    for (let line = 0; line < this.index.length / 2; line++) {
      const first = this.index[line * 2]!;
      if (first < 0) continue;
      const count = this.index[line * 2 + 1]!;
      let to = first;
      for (let at = first; at < first + count; at++) {
        if (drop(this.label[at]!)) continue;
        if (to !== at) {
          this.label[to] = this.label[at]!;
          this.start[to] = this.start[at]!;
          this.end[to] = this.end[at]!;
          if (this.confidence) this.confidence[to] = this.confidence[at]!;
          if (this.layer) this.layer[to] = this.layer[at]!;
        }
        to++;
      }
      const kept = to - first;
      removed += count - kept;
      this.index[line * 2 + 1] = kept;
    }
    this.live -= removed;
    return removed;
  }

  /**
   * Counts the live spans per label.
   *
   * @param counts - added to: `counts[label number]` grows by the spans that use it
   * @example
   * ```ts
   * const counts: number[] = [];
   * doc.countLabels(counts); // counts[0] === spans of the first label named
   * ```
   */
  countLabels(counts: number[]): void {
    for (let line = 0; line < this.index.length / 2; line++) {
      const first = this.index[line * 2]!;
      if (first < 0) continue;
      for (let at = first, end = first + this.index[line * 2 + 1]!; at < end; at++) {
        const label = this.label[at]!;
        counts[label] = (counts[label] ?? 0) + 1;
      }
    }
  }

  private growIndex(line: number): void {
    const next = new Int32Array(Math.max(this.index.length * 2, (line + 1) * 2)).fill(-1);
    next.set(this.index);
    this.index = next;
  }

  /** Drops unreferenced spans when they outnumber the live ones, else grows the columns. */
  private makeRoom(adding: number): void {
    const compact = this.used - this.live > this.live;
    const needed = (compact ? this.live : this.used) + adding;
    let capacity = this.label.length;
    while (capacity < needed) capacity = Math.ceil(capacity * GROWTH);
    const label = new Int32Array(capacity);
    const start = new Int32Array(capacity);
    const end = new Int32Array(capacity);
    const confidence = this.confidence && new Float64Array(capacity).fill(Number.NaN);
    const layer = this.layer && new Float64Array(capacity);
    const move = (from: number, count: number, to: number) => {
      label.set(this.label.subarray(from, from + count), to);
      start.set(this.start.subarray(from, from + count), to);
      end.set(this.end.subarray(from, from + count), to);
      confidence?.set(this.confidence!.subarray(from, from + count), to);
      layer?.set(this.layer!.subarray(from, from + count), to);
    };
    if (!compact) move(0, this.used, 0);
    else {
      let to = 0;
      for (let line = 0; line < this.index.length / 2; line++) {
        const first = this.index[line * 2]!;
        if (first < 0) continue;
        const count = this.index[line * 2 + 1]!;
        move(first, count, to);
        this.index[line * 2] = to;
        to += count;
      }
      this.used = to;
    }
    this.label = label;
    this.start = start;
    this.end = end;
    this.confidence = confidence;
    this.layer = layer;
  }
}
