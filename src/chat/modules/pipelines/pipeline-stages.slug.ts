/**
 * Stage ids (docs/spec/decisions.md §7): `{pipeline_id}_{slug}`, where the slug is the stage name lower-cased,
 * accents removed, every run of other characters turned into `_`, and trimmed of `_`; a second
 * stage with the same slug in the pipeline gets `_2`, a third `_3`, and so on.
 */

/** Letters that Unicode decomposition does not split into a base letter and an accent. */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/** A name that leaves nothing (only symbols, or a script without Latin letters) is a `stage`. */
const FALLBACK = 'stage';
const MAX_SLUG = 60;

export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDED[c] ?? c)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/_+$/, '');
  return slug || FALLBACK;
}

/**
 * The id of a new stage named `name` in pipeline `pipelineId`, given the ids already taken there
 * (the set is updated so that several new stages can be named in a row).
 */
export function nextStageKey(pipelineId: number, name: string, taken: Set<string>): string {
  const base = `${pipelineId}_${slugify(name)}`;
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
  taken.add(key);
  return key;
}

/** Stage ids have this shape; anything else names no stage. */
export const STAGE_KEY_PATTERN = /^[1-9]\d{0,18}_[a-z0-9_]{1,80}$/;
