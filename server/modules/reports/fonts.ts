/**
 * The report's fonts (docs/decisions/0712): Noto Sans (Latin, Greek, Cyrillic and their accents), Noto Sans
 * SC (Chinese, Japanese kana and most CJK) and Noto Sans KR (Hangul), TTF files from npm packages
 * (@expo-google-fonts/*, OFL-1.1), so a fresh clone needs no system fonts. pdfkit embeds only the glyphs a
 * report uses. Each character is written in the first font that has it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

export const FONT_FILES = {
  Sans: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  SansBold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  SansSC: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  SansKR: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
} as const;
export type FontName = keyof typeof FONT_FILES;

export interface LoadedFont {
  name: FontName;
  data: Buffer;
  has: (codePoint: number) => boolean;
}

let loaded: Record<FontName, LoadedFont> | undefined;

/** The font files, read once per process (they never change while it runs). */
export function fonts(): Record<FontName, LoadedFont> {
  if (!loaded) {
    const entries = (Object.entries(FONT_FILES) as [FontName, string][]).map(([name, file]) => {
      const data = readFileSync(require.resolve(file));
      const font = fontkit.create(data) as fontkit.Font;
      return [name, { name, data, has: (cp: number) => font.hasGlyphForCodePoint(cp) }] as const;
    });
    loaded = Object.fromEntries(entries) as Record<FontName, LoadedFont>;
  }
  return loaded;
}

export interface Run {
  font: FontName;
  text: string;
}

/** The text cut into runs, each in the first font (Latin, then Chinese, then Korean) that has its characters. */
export function fontRuns(text: string, bold = false): Run[] {
  const all = fonts();
  const latin = bold ? all.SansBold : all.Sans;
  const order = [latin, all.SansSC, all.SansKR];
  const runs: Run[] = [];
  // Spaces go with the run after them: a space at the end of a run is not kept by the PDF's text.
  let pending = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp <= 0x20) {
      pending += char;
      continue;
    }
    const last = runs.at(-1);
    const font =
      last && last.font === latin.name && latin.has(cp) ? latin : (order.find((f) => f.has(cp)) ?? latin);
    if (last && last.font === font.name) last.text += pending + char;
    else runs.push({ font: font.name, text: pending + char });
    pending = '';
  }
  if (pending) {
    const last = runs.at(-1);
    if (last) last.text += pending;
    else runs.push({ font: latin.name, text: pending });
  }
  return runs.length ? runs : [{ font: latin.name, text: '' }];
}
