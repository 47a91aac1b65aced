import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../testing/memoryStorage.ts';

const actual = Intl.DateTimeFormat().resolvedOptions().timeZone;
let storage: Storage;
let asked: ReturnType<typeof vi.spyOn>;

/** The module afresh, as on a new page. */
const load = async () => {
  vi.resetModules();
  return import('./timeZone.ts');
};

beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal('window', { localStorage: storage });
  asked = vi.spyOn(Intl, 'DateTimeFormat');
});
afterEach(() => {
  vi.unstubAllGlobals();
  asked.mockRestore();
});

describe('rememberedTimeZone', () => {
  it('asks Intl on a device that kept nothing, and keeps the zone with the clock’s reading', async () => {
    const { rememberedTimeZone } = await load();
    expect(rememberedTimeZone()).toBe(actual);
    expect(asked).toHaveBeenCalledTimes(1);
    const kept = JSON.parse(storage.getItem('checkboard-time-zone')!) as { zone: string; reading: string };
    expect(kept.zone).toBe(actual);
    expect(kept.reading).toMatch(/^GMT[+-]\d{4}.*\|GMT[+-]\d{4}/);
  });

  it('on the next page gives the kept zone without asking Intl, while the clock reads the same', async () => {
    (await load()).rememberedTimeZone();
    asked.mockClear();
    // A zone kept earlier is trusted as long as the reading matches: here a made-up one, to tell it apart.
    const kept = JSON.parse(storage.getItem('checkboard-time-zone')!) as { reading: string };
    storage.setItem('checkboard-time-zone', JSON.stringify({ zone: 'Kept/Zone', reading: kept.reading }));
    const { rememberedTimeZone } = await load();
    expect(rememberedTimeZone()).toBe('Kept/Zone');
    expect(asked).not.toHaveBeenCalled();
    // Read once a page: storage is not read again on every render.
    const read = vi.spyOn(storage, 'getItem');
    expect(rememberedTimeZone()).toBe('Kept/Zone');
    expect(read).not.toHaveBeenCalled();
  });

  it('asks again when the clock reads otherwise (the device moved zone), and keeps the new answer', async () => {
    storage.setItem(
      'checkboard-time-zone',
      JSON.stringify({ zone: 'Kept/Zone', reading: 'GMT+1400 (Elsewhere)|GMT+1400 (Elsewhere)' }),
    );
    const { rememberedTimeZone } = await load();
    expect(rememberedTimeZone()).toBe(actual);
    expect(asked).toHaveBeenCalledTimes(1);
    expect(JSON.parse(storage.getItem('checkboard-time-zone')!)).toMatchObject({ zone: actual });
  });

  it('asks Intl when what is kept is not readable, or storage is denied', async () => {
    storage.setItem('checkboard-time-zone', '{not json');
    expect((await load()).rememberedTimeZone()).toBe(actual);
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('denied');
      },
    });
    expect((await load()).rememberedTimeZone()).toBe(actual);
  });

  it('gives the zone already asked in this page, as browserTimeZone does', async () => {
    const { browserTimeZone, rememberedTimeZone } = await load();
    expect(browserTimeZone()).toBe(actual);
    storage.setItem('checkboard-time-zone', JSON.stringify({ zone: 'Kept/Zone', reading: 'x' }));
    expect(rememberedTimeZone()).toBe(actual);
    expect(browserTimeZone()).toBe(actual);
    expect(asked).toHaveBeenCalledTimes(1);
  });
});
