const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration: `90s`, `10m`, `1h`, `30d`, `500ms`, or plain milliseconds (`1500`).
 *
 * @param text - what the user typed
 * @returns the duration in milliseconds, or undefined when `text` is not a positive duration
 * @example
 * ```ts
 * parseDuration('10m'); // 600000
 * parseDuration('250'); // 250
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!);
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
