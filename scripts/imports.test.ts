import { describe, expect, it } from 'vitest';
import {
  cycles,
  importGraph,
  moduleBoundaryViolations,
  runtimeImports,
  webLayerViolations,
  type Graph,
} from './imports.ts';

const root = new URL('..', import.meta.url).pathname;

describe('the import graph of the repository', () => {
  const graph = importGraph(root);

  it('is read from every source root', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('server/main.ts')).toContain('server/app.ts');
  });

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no server module importing another, except through server/modules/shared', () => {
    expect(moduleBoundaryViolations(graph)).toEqual([]);
  });

  it('has no web feature importing another, except through the shared folders, type imports included', () => {
    const withTypes = importGraph(root, true);
    expect(webLayerViolations(withTypes)).toEqual([]);
  });
});

describe('the checker itself', () => {
  it('reads run-time imports and leaves type-only ones out', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { type E, f } from './e.ts';",
      "export { g } from '../g.ts';",
      "export type { H } from './h.ts';",
      "import './side-effect.ts';",
      "import zod from 'zod';",
      "const lazy = () => import('./lazy.tsx');",
    ].join('\n');
    expect(runtimeImports('web/x/y.ts', text)).toEqual([
      'web/x/a.ts',
      'web/x/e.ts',
      'web/g.ts',
      'web/x/side-effect.ts',
      'web/x/lazy.tsx',
    ]);
  });

  it('finds a cycle of two files and of three, and none in a chain', () => {
    const graph: Graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
      ['f.ts', ['g.ts']],
      ['g.ts', []],
    ]);
    expect(cycles(graph)).toEqual([
      ['a.ts', 'b.ts'],
      ['c.ts', 'd.ts', 'e.ts'],
    ]);
  });

  it('finds a module importing another, and shared importing a module, but allows shared and tests', () => {
    const graph: Graph = new Map([
      [
        'server/modules/boards/service.ts',
        ['server/modules/cards/service.ts', 'server/modules/shared/plan.ts'],
      ],
      ['server/modules/shared/plan.ts', ['server/modules/billing/stripe.ts']],
      ['server/modules/boards/boards.test.ts', ['server/modules/cards/service.ts']],
      ['server/app.ts', ['server/modules/boards/routes.ts']],
    ]);
    expect(moduleBoundaryViolations(graph)).toEqual([
      'server/modules/boards/service.ts imports server/modules/cards/service.ts',
      'server/modules/shared/plan.ts imports server/modules/billing/stripe.ts',
    ]);
  });

  it('finds a feature importing another, a shared file importing a feature or the app, but allows the app', () => {
    const graph: Graph = new Map([
      ['web/features/cards/CardsPage.tsx', ['web/features/boards/api.ts', 'web/shared/api/boards.ts']],
      ['web/features/cards/builder/Items.tsx', ['web/features/cards/api.ts', 'web/lib/api.ts']],
      ['web/shared/gates/RoleGate.tsx', ['web/features/misc/NotFoundPage.tsx']],
      ['web/lib/paths.ts', ['web/app/router.tsx']],
      ['web/features/boards/BoardsPanel.tsx', ['web/app/layout/Shell.tsx', 'common/roles.ts']],
      ['web/app/pages/BoardViewPage.tsx', ['web/features/evaluations/BoardResults.tsx']],
    ]);
    expect(webLayerViolations(graph)).toEqual([
      'web/features/cards/CardsPage.tsx imports web/features/boards/api.ts',
      'web/shared/gates/RoleGate.tsx imports web/features/misc/NotFoundPage.tsx',
      'web/lib/paths.ts imports web/app/router.tsx',
      'web/features/boards/BoardsPanel.tsx imports web/app/layout/Shell.tsx',
    ]);
  });

  it('counts type-only imports when asked', () => {
    expect(runtimeImports('web/x/y.ts', "import type { B } from './b.ts';", true)).toEqual(['web/x/b.ts']);
  });
});
