import { describe, expect, it } from 'vitest';
import { EpochCache, LruMap } from './epoch-cache.js';

describe('LruMap', () => {
  it('keeps at most max entries, forgetting the least recently used', () => {
    const map = new LruMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the most recent; b the least
    map.set('d', 4);
    expect(map.size).toBe(3);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([1, 3, 4]);
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(map.get('k999')).toBe(999);
  });

  it('refuses a size under one', () => {
    expect(() => new LruMap(0)).toThrow();
  });
});

describe('EpochCache', () => {
  const counted = () => {
    let loads = 0;
    return {
      load: async () => {
        loads++;
        return `value ${loads}`;
      },
      get loads() {
        return loads;
      },
    };
  };

  it('serves what it loaded until the epoch moves, then loads again', async () => {
    let epoch = 1;
    const cache = new EpochCache(async () => epoch);
    const source = counted();
    expect(await (await cache.open()).through('k', source.load)).toBe('value 1');
    expect(await (await cache.open()).through('k', source.load)).toBe('value 1');
    expect(source.loads).toBe(1);
    epoch = 2;
    expect(await (await cache.open()).through('k', source.load)).toBe('value 2');
    expect(source.loads).toBe(2);
  });

  it('opens at an epoch the caller read itself, as it would at one it read', async () => {
    const cache = new EpochCache(undefined);
    await expect(cache.open()).rejects.toThrow(/openAt/);
    const source = counted();
    expect(await cache.openAt(7).through('k', source.load)).toBe('value 1');
    expect(await cache.openAt(7).through('k', source.load)).toBe('value 1');
    expect(await cache.openAt(8).through('k', source.load)).toBe('value 2');
    // Without an epoch nothing is served from the cache or stored in it.
    expect(await cache.openAt(undefined).through('k', source.load)).toBe('value 3');
    expect(await cache.openAt(8).through('k', source.load)).toBe('value 2');
  });

  it('never caches an absence', async () => {
    const cache = new EpochCache(async () => 1);
    let loads = 0;
    const missing = async () => void loads++;
    for (let i = 0; i < 3; i++) expect(await (await cache.open()).through('k', missing)).toBeUndefined();
    expect(loads).toBe(3);
    expect(cache.size).toBe(0);
  });

  it('stays within its bound', async () => {
    const cache = new EpochCache(async () => 1, 50);
    const view = await cache.open();
    for (let i = 0; i < 500; i++) await view.through(`k${i}`, async () => i);
    expect(cache.size).toBe(50);
  });

  it('does not keep what a request loaded under an epoch the cache has moved past', async () => {
    let epoch = 4;
    const cache = new EpochCache(async () => epoch);
    const slow = await cache.open(); // read epoch 4
    epoch = 5;
    await cache.open(); // a faster request saw 5 and emptied the cache
    await slow.through('k', async () => 'loaded under 4');
    const source = counted();
    expect(await (await cache.open()).through('k', source.load)).toBe('value 1');
    expect(await (await cache.open()).through('k', source.load)).toBe('value 1');
  });

  it('empties itself when the epoch moves back (a restored backup)', async () => {
    let epoch = 7;
    const cache = new EpochCache(async () => epoch);
    const source = counted();
    await (await cache.open()).through('k', source.load);
    epoch = 3;
    expect(await (await cache.open()).through('k', source.load)).toBe('value 2');
  });

  it('caches nothing when the epoch cannot be read', async () => {
    const cache = new EpochCache(async () => undefined);
    const source = counted();
    await (await cache.open()).through('k', source.load);
    await (await cache.open()).through('k', source.load);
    expect(source.loads).toBe(2);
  });
});
