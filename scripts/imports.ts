/**
 * The layout rules that need the whole import graph (docs/decisions/0490): no import cycles, and server
 * modules that import no other module except `server/modules/shared/`. Checked by scripts/imports.test.ts
 * in `npm test`. Written here rather than through an ESLint plugin because the plugins that follow imports
 * need platform-specific native resolvers that `npm ci` cannot lock for every platform from this registry.
 *
 * Imports name their files with the extension (`./x.ts`), so resolving a relative specifier is joining
 * paths. Type-only imports are left out: they vanish at run time and cannot form a cycle of modules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE_ROOTS = ['common', 'server', 'web', 'scripts', 'bench', 'e2e'];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

/** Every source file under the roots, as paths relative to `root` with forward slashes. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'public') walk(relative);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative);
    }
  };
  for (const dir of SOURCE_ROOTS) walk(dir);
  return files.sort();
}

// `import x from '…'`, `import '…'`, `export … from '…'`, `import('…')`; not `import type`/`export type`.
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The files a source file imports at run time (relative specifiers only), resolved against its folder.
 * With `withTypes`, type-only imports count too: they do not form cycles, but they still tie one web
 * feature to another.
 */
export function runtimeImports(file: string, text: string, withTypes = false): string[] {
  const specifiers: string[] = [];
  for (const match of text.matchAll(STATIC)) {
    if (withTypes) {
      specifiers.push(match[3]!);
      continue;
    }
    if (match[2]) continue; // import type … / export type …
    const clause = match[0];
    // `import { type A, type B } from` imports nothing at run time either.
    const named = /\{([^}]*)\}/.exec(clause);
    const onlyTypes =
      named !== null &&
      !/^\s*(import|export)\s+[\w$]+\s*,/.test(clause) &&
      named[1]!
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .every((part) => part.startsWith('type '));
    if (!onlyTypes) specifiers.push(match[3]!);
  }
  for (const match of text.matchAll(DYNAMIC)) specifiers.push(match[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
}

export type Graph = Map<string, string[]>;

export function importGraph(root: string, withTypes = false): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(root)) {
    graph.set(file, runtimeImports(file, readFileSync(path.join(root, file), 'utf8'), withTypes));
  }
  return graph;
}

/** Each import cycle once, as the files in it (Tarjan's strongly connected components of two or more). */
export function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const moduleOf = (file: string) => /^server\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/**
 * Imports that cross server modules: a module imports only itself and `shared`; `shared` imports no
 * module. Tests may reach across modules (to check what one call does to another's rows).
 */
export function moduleBoundaryViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (from === null || file.endsWith('.test.ts')) continue;
    for (const target of targets) {
      const to = moduleOf(target);
      if (to === null || to === from || to === 'shared') continue;
      violations.push(`${file} imports ${target}`);
    }
  }
  return violations;
}

const featureOf = (file: string) => /^web\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
const isShared = (file: string) => /^web\/(shared|components|lib)\//.test(file);

/**
 * The web layers (docs/decisions/0580): `web/app` (router, layout and the pages that compose several
 * features) may import anything; a feature under `web/features/` imports only itself, `web/shared`,
 * `web/components`, `web/lib` and `common`; the shared folders import neither features nor `web/app`.
 * Tests are held to the same rule: a feature's test that needs another feature belongs in e2e/.
 */
export function webLayerViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = featureOf(file);
    const shared = isShared(file);
    if (from === null && !shared) continue;
    for (const target of targets) {
      if (!target.startsWith('web/')) continue;
      const to = featureOf(target);
      const crossesFeatures = from !== null && to !== null && to !== from;
      const reachesUp = target.startsWith('web/app/') || (shared && to !== null);
      if (crossesFeatures || reachesUp) violations.push(`${file} imports ${target}`);
    }
  }
  return violations;
}
