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

/**
 * The spans of one line before they are stored: numbers only, in columns reused from line to line.
 *
 * @remarks What the store fills (label entry, first and last token, confidence, flags) and hands to
 * {@link CompactLines.setLine}; nothing is allocated per span.
 * @example
 * ```ts
 * const spans = new LineSpans();
 * spans.push(0, 2, 3, Number.NaN, 0);
 * doc.setLine(4, spans);
 * spans.clear();
 * ```
 */
export class LineSpans {
  entry = new Int32Array(16);
  startToken = new Int32Array(16);
  endToken = new Int32Array(16);
  confidence = new Float64Array(16);
  flags = new Uint8Array(16);
  /** How many spans are held. */
  count = 0;

  /** Forgets the spans held. */
  clear(): void {
    this.count = 0;
  }

  /**
   * Adds a span.
   *
   * @param entry - the label entry (see `LabelRefs`)
   * @param startToken - the first token
   * @param endToken - the last token (inclusive)
   * @param confidence - from 0 to 1, NaN for none
   * @param flags - see {@link labelFlags}; 0 for the copy's default
   */
  push(entry: number, startToken: number, endToken: number, confidence: number, flags: number): void {
    if (this.count === this.entry.length) {
      const size = this.count * 2;
      const grow = <T extends Int32Array | Float64Array | Uint8Array>(old: T, make: (n: number) => T) => {
        const next = make(size);
        next.set(old);
        return next;
      };
      this.entry = grow(this.entry, (n) => new Int32Array(n));
      this.startToken = grow(this.startToken, (n) => new Int32Array(n));
      this.endToken = grow(this.endToken, (n) => new Int32Array(n));
      this.confidence = grow(this.confidence, (n) => new Float64Array(n));
      this.flags = grow(this.flags, (n) => new Uint8Array(n));
    }
    const at = this.count++;
    this.entry[at] = entry;
    this.startToken[at] = startToken;
    this.endToken[at] = endToken;
    this.confidence[at] = confidence;
    this.flags[at] = flags;
  }
}

/** The values of `labeledBy` (production's `ConflictTextLabelResolutionStrategy`), in flag order. */
export const LABELED_BY = ['AUTO', 'CONFLICT', 'EXTERNAL', 'LABELER', 'PRELABELED', 'REVIEWER'] as const;
/** One value of `LABELED_BY`. */
export type LabeledBy = (typeof LABELED_BY)[number];
/** The flag bit of a deleted label. */
const DELETED = 8;
/** The flag bit of a label the reviewer rejected (gold only; see `ReviewLabelInput.rejected`). */
const REJECTED = 16;

/**
 * The flags byte of a stored label: bits 0-2 its `labeledBy` (0 = the copy's default, n = the n-th
 * of `LABELED_BY` plus one), bit 3 deleted, bit 4 rejected.
 *
 * @param labeledBy - undefined for the copy's default
 * @param deleted - whether the label was deleted
 * @param rejected - whether the reviewer rejected it
 * @returns a byte for {@link LineSpans.push}
 * @example
 * ```ts
 * labelFlags('CONFLICT', false); // 2
 * ```
 */
export function labelFlags(labeledBy: LabeledBy | undefined, deleted: boolean, rejected = false): number {
  return (labeledBy === undefined ? 0 : LABELED_BY.indexOf(labeledBy) + 1) | (deleted ? DELETED : 0) | (rejected ? REJECTED : 0);
}

/**
 * Reads a flags byte back.
 *
 * @param flags - a byte made by {@link labelFlags}
 * @param copyDefault - the `labeledBy` of the copy's labels without one of their own
 * @returns the label's `labeledBy`, whether it was deleted and whether it was rejected
 */
export function readFlags(flags: number, copyDefault: LabeledBy): { labeledBy: LabeledBy; deleted: boolean; rejected: boolean } {
  const by = flags & 7;
  return { labeledBy: by === 0 ? copyDefault : LABELED_BY[by - 1]!, deleted: (flags & DELETED) !== 0, rejected: (flags & REJECTED) !== 0 };
}

/**
 * The labels of one document of one copy, by line, held in typed-array columns instead of an
 * object per label.
 *
 * @remarks A label is stored as the service stores it, by token position: its label entry (which
 * names the label item and the layer, see `LabelRefs`), its first and last token; the line is its
 * sentence, and its characters are whole tokens (`charId` 0 of the first, the last character of the
 * last), so no character offset is kept. A label costs 12 bytes (three int32), plus 8 for its
 * confidence once some label of the document has one, plus 1 for its flags (`labeledBy` other than
 * the copy's, deleted) once some label has one; a line costs 8 (where its labels start, how many).
 * Setting a line again appends its new labels and leaves the old ones unreferenced; when the
 * columns are full and unreferenced labels outnumber the live ones, they are compacted instead of
 * grown.
 * @example
 * ```ts
 * const doc = new CompactLines(2);
 * const spans = new LineSpans();
 * spans.push(0, 0, 1, 0.9, 0);
 * doc.setLine(1, spans);
 * doc.countOf(1); // 1
 * ```
 */
export class CompactLines {
  /** Per line: first label, then label count; -1 as first = the line was never set. */
  private index: Int32Array;
  private entry: Int32Array;
  private startToken: Int32Array;
  private endToken: Int32Array;
  /** NaN = no confidence; null until a label has one. */
  private confidence: Float64Array | null = null;
  /** null until a label has flags other than 0. */
  private flags: Uint8Array | null = null;
  /** Labels written into the columns (live or not). */
  private used = 0;
  /** Labels referenced by a line. */
  private live = 0;
  /** Grows with every change: a page cursor made before a change finds its place again from the start. */
  version = 0;

  /**
   * @param lineCount - the document's number of lines (more are accepted; the index grows); the
   * columns first hold one label per line
   */
  constructor(lineCount: number) {
    const lines = Math.max(1, lineCount);
    this.index = new Int32Array(lines * 2).fill(-1);
    this.entry = new Int32Array(lines);
    this.startToken = new Int32Array(lines);
    this.endToken = new Int32Array(lines);
  }

  /** How many labels the document holds (deleted ones included). */
  get total(): number {
    return this.live;
  }

  /** One more than the highest line number the index has room for. */
  get lineSlots(): number {
    return this.index.length / 2;
  }

  /**
   * Sets (replaces) the labels of one line.
   *
   * @param line - the zero-based line number
   * @param spans - its labels, possibly none
   */
  setLine(line: number, spans: LineSpans): void {
    if (line * 2 + 1 >= this.index.length) this.growIndex(line);
    if (this.index[line * 2]! >= 0) {
      this.live -= this.index[line * 2 + 1]!;
      this.index[line * 2] = -1; // its old labels are dead now, and a compaction below drops them
    }
    const n = spans.count;
    if (this.used + n > this.entry.length) this.makeRoom(n);
    const at = this.used;
    // A loop, not set(subarray()): a line has few labels, and three views per line cost more than the copy.
    for (let i = 0; i < n; i++) {
      this.entry[at + i] = spans.entry[i]!;
      this.startToken[at + i] = spans.startToken[i]!;
      this.endToken[at + i] = spans.endToken[i]!;
      const c = spans.confidence[i]!;
      if (!Number.isNaN(c)) (this.confidence ??= new Float64Array(this.entry.length).fill(Number.NaN))[at + i] = c;
      else if (this.confidence) this.confidence[at + i] = Number.NaN;
      const f = spans.flags[i]!;
      if (f !== 0) (this.flags ??= new Uint8Array(this.entry.length))[at + i] = f;
      else if (this.flags) this.flags[at + i] = 0;
    }
    this.index[line * 2] = at;
    this.index[line * 2 + 1] = n;
    this.used += n;
    this.live += n;
    this.version++;
  }

  /**
   * @param line - the zero-based line number
   * @returns whether the line was set (to labels or to none)
   */
  isSet(line: number): boolean {
    return line >= 0 && line * 2 + 1 < this.index.length && this.index[line * 2]! >= 0;
  }

  /**
   * @param line - a line that {@link CompactLines.isSet}
   * @returns where its labels start in the columns
   */
  firstOf(line: number): number {
    return this.index[line * 2]!;
  }

  /**
   * @param line - the zero-based line number
   * @returns how many labels it has (0 when never set)
   */
  countOf(line: number): number {
    return this.isSet(line) ? this.index[line * 2 + 1]! : 0;
  }

  /** @param at - a column position @returns the label's entry */
  entryAt(at: number): number {
    return this.entry[at]!;
  }

  /** @param at - a column position @returns the label's first token */
  startTokenAt(at: number): number {
    return this.startToken[at]!;
  }

  /** @param at - a column position @returns the label's last token (inclusive) */
  endTokenAt(at: number): number {
    return this.endToken[at]!;
  }

  /** @param at - a column position @returns the label's confidence, NaN for none */
  confidenceAt(at: number): number {
    return this.confidence ? this.confidence[at]! : Number.NaN;
  }

  /** @param at - a column position @returns the label's flags (see {@link labelFlags}) */
  flagsAt(at: number): number {
    return this.flags ? this.flags[at]! : 0;
  }

  /**
   * Calls `visit` for every line that was set, in line order.
   *
   * @param visit - receives the line number, where its labels start and how many there are
   */
  forEachLine(visit: (line: number, first: number, count: number) => void): void {
    const lines = this.index.length / 2;
    for (let line = 0; line < lines; line++) {
      const first = this.index[line * 2]!;
      if (first >= 0) visit(line, first, this.index[line * 2 + 1]!);
    }
  }

  /**
   * Removes every label whose entry the predicate picks, from every line.
   *
   * @param drop - receives a label's entry and says whether the label goes
   * @returns how many labels were removed
   * @remarks A line keeps its other labels in order, and stays set even when none is left (it was
   * labelled, now with nothing). The removed labels' room is reclaimed by the next compaction.
   */
  removeLabels(drop: (entry: number) => boolean): number {
    let removed = 0;
    for (let line = 0; line < this.index.length / 2; line++) {
      const first = this.index[line * 2]!;
      if (first < 0) continue;
      const count = this.index[line * 2 + 1]!;
      let to = first;
      for (let at = first; at < first + count; at++) {
        if (drop(this.entry[at]!)) continue;
        if (to !== at) this.moveOne(at, to);
        to++;
      }
      const kept = to - first;
      removed += count - kept;
      this.index[line * 2 + 1] = kept;
    }
    this.live -= removed;
    if (removed > 0) this.version++;
    return removed;
  }

  private moveOne(from: number, to: number): void {
    this.entry[to] = this.entry[from]!;
    this.startToken[to] = this.startToken[from]!;
    this.endToken[to] = this.endToken[from]!;
    if (this.confidence) this.confidence[to] = this.confidence[from]!;
    if (this.flags) this.flags[to] = this.flags[from]!;
  }

  private growIndex(line: number): void {
    const next = new Int32Array(Math.max(this.index.length * 2, (line + 1) * 2)).fill(-1);
    next.set(this.index);
    this.index = next;
  }

  /** Drops unreferenced labels when they outnumber the live ones, else grows the columns. */
  private makeRoom(adding: number): void {
    const compact = this.used - this.live > this.live;
    const needed = (compact ? this.live : this.used) + adding;
    let capacity = this.entry.length;
    while (capacity < needed) capacity = Math.ceil(capacity * GROWTH);
    const entry = new Int32Array(capacity);
    const startToken = new Int32Array(capacity);
    const endToken = new Int32Array(capacity);
    const confidence = this.confidence && new Float64Array(capacity).fill(Number.NaN);
    const flags = this.flags && new Uint8Array(capacity);
    const move = (from: number, count: number, to: number) => {
      if (count <= 8) {
        // A line's few labels: copied one by one, without the typed-array views a set(subarray()) makes.
        for (let i = 0; i < count; i++) {
          entry[to + i] = this.entry[from + i]!;
          startToken[to + i] = this.startToken[from + i]!;
          endToken[to + i] = this.endToken[from + i]!;
          if (confidence) confidence[to + i] = this.confidence![from + i]!;
          if (flags) flags[to + i] = this.flags![from + i]!;
        }
        return;
      }
      entry.set(this.entry.subarray(from, from + count), to);
      startToken.set(this.startToken.subarray(from, from + count), to);
      endToken.set(this.endToken.subarray(from, from + count), to);
      confidence?.set(this.confidence!.subarray(from, from + count), to);
      flags?.set(this.flags!.subarray(from, from + count), to);
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
    this.entry = entry;
    this.startToken = startToken;
    this.endToken = endToken;
    this.confidence = confidence;
    this.flags = flags;
  }
}
