/** Timestamps are stored as epoch milliseconds; these render them for responses. */
export function toIso(ms: number): string;
export function toIso(ms: number | null | undefined): string | null;
export function toIso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export function toUnix(ms: number): number;
export function toUnix(ms: number | null | undefined): number | null;
export function toUnix(ms: number | null | undefined): number | null {
  return ms === null || ms === undefined ? null : Math.floor(ms / 1000);
}

/** Parses a stored JSON document, tolerating a corrupt value as an empty object. */
export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
