import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/duration.js';

describe('parseDuration', () => {
  it('reads seconds, minutes, hours, days and milliseconds when a unit is given', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('30d')).toBe(2_592_000_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1_500);
  });

  it('reads plain milliseconds when no unit is given', () => {
    expect(parseDuration('1500')).toBe(1_500);
  });

  it('returns undefined when the text is not a positive duration', () => {
    for (const bad of ['', 'soon', '5x', '-1s', '0', '0s', '10 minutes', 's']) expect(parseDuration(bad)).toBeUndefined();
  });
});
