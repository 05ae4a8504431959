/**
 * The performance issue's targets, checked against one run's figures: one line each,
 * `target: <text> — <measured> — met | NOT met`.
 */
import { flatness, flatKey } from './core.js';
import type { Ceiling, Result } from './harness.js';

export interface Figures {
  /** The dialect's Ponte results (measurePonte) and the ceilings' req/s. */
  results: Result[];
  ceilings: Record<Ceiling, number>;
  /** Present on the SQLite run only (the scenarios that run once). */
  webhooks?: { burstPerSecond: number; pacedMedianMs: number };
  coldStart?: { freshMs: number; existingMs: number };
  /** The chat server's peak resident set (VmHWM) over the load scenarios. */
  peakRssMb?: number;
}

interface Target {
  text: string;
  measured: string;
  met: boolean;
}

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

export function checkTargets(f: Figures): Target[] {
  const byKey = (key: string) => {
    const r = f.results.find((result) => result.key === key);
    if (!r) throw new Error(`no result ${key}`);
    return r;
  };
  const ratio = (key: string) => {
    const r = byKey(key);
    return r.rps / f.ceilings[r.ceiling!];
  };
  const atLeast = (text: string, value: number, min: number, show = x) => ({
    text,
    measured: show(value),
    met: value >= min,
  });
  const atMost = (text: string, value: number, max: number, show = ms) => ({
    text,
    measured: show(value),
    met: value <= max,
  });
  const large = flatKey('conversations', 'large');
  const targets: Target[] = [
    atLeast('POST message >= 1.0x the durable single-INSERT route', ratio('post-message'), 1.0),
    atMost('POST message p99 <= 15 ms', byKey('post-message').p99, 15),
    atLeast('GET conversations (large account) >= 0.3x the page read', ratio(large), 0.3),
    atMost('GET conversations (large account) p99 <= 20 ms', byKey(large).p99, 20),
    ...flatness(f.results).map((row) =>
      atMost(
        `${row.kind} p99 at the large account <= 1.5x its p99 at the small one`,
        row.ratio,
        1.5,
        (v) => `${x(v)} (${ms(row.large)} / ${ms(row.small)})`,
      ),
    ),
    atLeast('GET messages >= 0.5x the page read', ratio('messages'), 0.5),
    atLeast('GET /api/v1/profile (auth) >= 0.6x GET /api (no auth)', ratio('profile'), 0.6),
  ];
  if (f.webhooks) {
    const { burstPerSecond, pacedMedianMs } = f.webhooks;
    targets.push(
      atLeast('webhooks >= 2,000 deliveries/s in the burst', burstPerSecond, 2000, (v) => `${v.toFixed(0)}/s`),
      atMost('webhooks median commit-to-receipt <= 50 ms (steady pace)', pacedMedianMs, 50),
    );
  }
  if (f.coldStart) {
    const { freshMs, existingMs } = f.coldStart;
    targets.push({
      text: 'cold start to the first 200 <= 1 s (fresh and migrated DATA_DIR)',
      measured: `${freshMs.toFixed(0)} ms fresh, ${existingMs.toFixed(0)} ms migrated`,
      met: Math.max(freshMs, existingMs) <= 1000,
    });
  }
  if (f.peakRssMb !== undefined)
    targets.push(atMost('resident memory <= 250 MB under load (VmHWM)', f.peakRssMb, 250, (v) => `${v.toFixed(0)} MB`));
  return targets;
}

export function formatTargets(targets: Target[], prefix = '') {
  return targets.map((t) => `${prefix}target: ${t.text} — ${t.measured} — ${t.met ? 'met' : 'NOT met'}\n`).join('');
}
