// Loaded by the bin shim for help argv only (packages/labelkit-tools/bin/labelkit.js): imports
// nothing, so that `labelkit --help` starts without commander or any command's module.
// `npm run build` (scripts/build.mjs, the help step) bundles it with the help texts it captured
// from the real program into dist/help.js; test/cli/storedHelp.test.ts proves the rendering
// byte-identical to commander's at every terminal width.

/**
 * One piece of a stored help text: literal text, an item (term and description, as commander's
 * `Help.formatItem` lays it out), or a description wrapped to the whole width (`Help.boxWrap`).
 *
 * @remarks An item is `['item', head, termWidth, description, wrap]`: `head` is the indent, the
 * padded term and the spacer; `wrap` is false when commander leaves the description as written
 * (it holds a line break followed by white space: "preformatted").
 */
export type HelpPart = string | readonly ['item', string, number, string, boolean] | readonly ['wrap', string];

/** The help texts of the `labelkit` command, as the build captured them. */
export interface StoredHelp {
  /** commander's `Help.minWidthToWrap`: no wrapping below this width. */
  minWidthToWrap: number;
  /** Each distinct help text, as parts to lay out at the terminal's width. */
  texts: ReadonlyArray<ReadonlyArray<HelpPart>>;
  /** `JSON.stringify(args)` of each help argv (`["--help"]`, `["cabinet","-h"]`, `["help","jobs"]`, …) → index into `texts`. */
  argv: Readonly<Record<string, number>>;
}

/**
 * The width commander wraps help to on this stdout.
 *
 * @param stdout - the stream help goes to
 * @returns its columns on a terminal, else 80 (commander's `getOutHelpWidth` and its fallback)
 * @example
 * ```ts
 * helpWidthOf(process.stdout); // 80 when piped
 * ```
 */
export function helpWidthOf(stdout: { isTTY?: boolean; columns?: number }): number {
  return (stdout.isTTY ? stdout.columns : undefined) ?? 80;
}

/**
 * commander's `Help.boxWrap`: wraps at white space to `width`, keeping line breaks.
 *
 * @param text - text without colour codes (the build refuses any)
 * @param width - the width of the box
 * @param minWidthToWrap - below this width the text stays as it is
 * @returns the wrapped text
 */
function boxWrap(text: string, width: number, minWidthToWrap: number): string {
  if (width < minWidthToWrap) return text;
  const wrapped: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    let current = chunks[0]!;
    for (const chunk of chunks.slice(1)) {
      if (current.length + chunk.length <= width) {
        current += chunk;
        continue;
      }
      wrapped.push(current);
      current = chunk.trimStart();
    }
    wrapped.push(current);
  }
  return wrapped.join('\n');
}

/**
 * Lays out one stored help text at a terminal width, exactly as commander does.
 *
 * @param store - the captured help texts
 * @param index - which text
 * @param width - the help width ({@link helpWidthOf})
 * @returns the text commander would print
 */
function layOut(store: StoredHelp, index: number, width: number): string {
  const min = store.minWidthToWrap;
  return store.texts[index]!
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part[0] === 'wrap') return boxWrap(part[1], width, min);
      const [, head, termWidth, description, wrap] = part;
      const remaining = width - termWidth - 4;
      const text = !wrap || remaining < min ? description : boxWrap(description, remaining, min).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
      return head + text.replace(/\n/g, '\n  ');
    })
    .join('');
}

/**
 * The help text for these arguments, if they ask for help in one of the stored shapes.
 *
 * @param store - the captured help texts (dist/help.js exports them as `STORED_HELP`)
 * @param args - the arguments after the script (`process.argv.slice(2)`)
 * @param width - the help width ({@link helpWidthOf})
 * @returns the text `labelkit …args` prints, or undefined when the arguments are not exactly a
 * stored help shape (the full CLI then runs)
 * @remarks The stored shapes are `--help`, `-h`, `help`, `<command> --help`/`-h`,
 * `help <command>`, and the same one level down (`label-sets plan --help`, `label-sets help plan`).
 * @example
 * ```ts
 * const text = storedHelp(STORED_HELP, ['cabinet', '--help'], helpWidthOf(process.stdout));
 * ```
 */
export function storedHelp(store: StoredHelp, args: readonly string[], width: number): string | undefined {
  const index = store.argv[JSON.stringify(args)];
  return index === undefined ? undefined : layOut(store, index, width);
}
