/**
 * Run by `npm run build` after Vite (docs/decisions/0767): the main script's Mantine components must have
 * their styles in web/styles/first.ts, and first.ts with later.ts must import every style file of
 * @mantine/core once, in Mantine's own order (the order of its styles.css). Exits 1 with what to change.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stylesDir = path.join(root, 'node_modules/@mantine/core/styles');

/** Mantine's style files (without .css), in the order its styles.css holds them. */
function mantineOrder(): string[] {
  const whole = readFileSync(path.join(root, 'node_modules/@mantine/core/styles.css'), 'utf8');
  const names = readdirSync(stylesDir)
    .filter((f) => f.endsWith('.css') && !f.endsWith('.layer.css'))
    .map((f) => f.slice(0, -'.css'.length));
  const at = new Map(
    names.map((name) => {
      const text = readFileSync(path.join(stylesDir, `${name}.css`), 'utf8').trim();
      return [name, whole.indexOf(text.slice(0, 120))];
    }),
  );
  return names.filter((name) => at.get(name)! >= 0).sort((a, b) => at.get(a)! - at.get(b)!);
}

/** The style files a module imports, in order. */
function imported(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/^import '@mantine\/core\/styles\/(.+)\.layer\.css';$/gm)].map((m) => m[1]!);
}

/** The Mantine components (folders of @mantine/core/esm/components) in the scripts index.html loads first. */
function firstLoadComponents(): Set<string> {
  const html = readFileSync(path.join(root, 'dist/web/index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const components = new Set<string>();
  for (const script of scripts) {
    const map = path.join(root, 'dist/web-sourcemaps/assets', `${script}.map`);
    if (!existsSync(map)) throw new Error(`no source map for ${script}: ${map}`);
    for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
      const match = /@mantine\/core\/esm\/components\/([^/]+)\//.exec(source);
      if (match) components.add(match[1]!);
    }
  }
  return components;
}

const problems: string[] = [];
const order = mantineOrder();
const first = imported('web/styles/first.ts');
const later = imported('web/styles/later.ts');
const both = [...first, ...later];
for (const name of order)
  if (both.filter((n) => n === name).length !== 1)
    problems.push(
      `${name}.layer.css: imported ${both.filter((n) => n === name).length} times in first.ts and later.ts (once expected)`,
    );
for (const name of both)
  if (!order.includes(name)) problems.push(`${name}: not a style file of @mantine/core`);
for (const list of [first, later]) {
  const positions = list.map((name) => order.indexOf(name));
  positions.forEach((p, i) => {
    if (i > 0 && p < positions[i - 1]!)
      problems.push(`${list[i]} comes before ${list[i - 1]} in Mantine's order`);
  });
}
for (const component of firstLoadComponents()) {
  if (order.includes(component) && !first.includes(component))
    problems.push(
      `${component} is in the first script: import its styles in web/styles/first.ts, not later.ts`,
    );
}
if (problems.length) {
  console.error(`Mantine's styles (docs/decisions/0767):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.warn(`Mantine's styles: ${first.length} files first, ${later.length} later.`);
