import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { api } from './common/api/index.ts';
import { wireModule } from './common/api/wire.ts';

/** Every build gets its own id: compiled into the app and written to version.txt beside it. */
function buildVersion(buildId: string): Plugin {
  return {
    name: 'checkboard-build-version',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.txt', source: `${buildId}\n` });
    },
  };
}

/**
 * The browser's build loads the contract's wire facts, not the contract (docs/decisions/0628): each call's
 * path, method, access and failure message as plain data, so zod and the schemas only the server runs are
 * not sent to phones. Development and tests load the contract itself; the types are the same either way.
 */
function contractWireFacts(): Plugin {
  const contract = path.resolve(import.meta.dirname, 'common/api/index.ts');
  const vocabulary = path.resolve(import.meta.dirname, 'common/api/vocabulary.ts');
  return {
    name: 'checkboard-contract-wire-facts',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      return id === contract ? wireModule(api, vocabulary) : null;
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * After the build (decision 0622): source maps move out of the served folder to dist/web-sourcemaps/ (they
 * are written `hidden`, so no file points at them), and every text file gets .br and .gz siblings, made once
 * at the highest levels, which the server picks by Accept-Encoding. A variant not smaller is not kept.
 */
function precompressAndHideMaps(): Plugin {
  let outDir = '';
  return {
    name: 'checkboard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const mapsDir = path.join(outDir, '..', 'web-sourcemaps');
      rmSync(mapsDir, { recursive: true, force: true });
      for (const file of filesUnder(outDir)) {
        if (file.endsWith('.map')) {
          const target = path.join(mapsDir, path.relative(outDir, file));
          mkdirSync(path.dirname(target), { recursive: true });
          renameSync(file, target);
          continue;
        }
        if (!COMPRESSIBLE.test(file)) continue;
        const source = readFileSync(file);
        const variants = {
          br: brotliCompressSync(source, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gz: gzipSync(source, { level: 9 }),
        };
        for (const [extension, compressed] of Object.entries(variants))
          if (compressed.length < source.length) writeFileSync(`${file}.${extension}`, compressed);
      }
    },
  };
}

/**
 * The app's script is not render-blocking (a module script runs after parsing): index.html paints its frame
 * without it (decision 0770). Fetched at low priority, it does not share the first round trips with the
 * stylesheet that frame needs; nothing else competes with it at that moment.
 */
function entryScriptAfterStyles(): Plugin {
  return {
    name: 'checkboard-entry-script-after-styles',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml(html) {
      const entry = /<script type="module" crossorigin src="/;
      if (!entry.test(html)) throw new Error('index.html: the entry script tag is not where expected');
      return html.replace(entry, '<script type="module" crossorigin fetchpriority="low" src="');
    },
  };
}

export default defineConfig(({ command }) => {
  const buildId =
    command === 'build'
      ? `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${randomBytes(4).toString('hex')}`
      : 'development';
  const apiPort = process.env.PORT ?? '3000';
  return {
    root: 'web',
    publicDir: 'public',
    plugins: [
      react(),
      entryScriptAfterStyles(),
      contractWireFacts(),
      buildVersion(buildId),
      // An installable app that opens offline (issue 14, docs/decisions/0730): web/sw.ts, the manifest.
      VitePWA({
        strategies: 'injectManifest',
        srcDir: '.',
        filename: 'sw.ts',
        injectRegister: false,
        registerType: 'autoUpdate',
        manifest: {
          name: 'Checkboard',
          short_name: 'Checkboard',
          description: 'Checklists, inspections and pass/fail results for every site, line and area.',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          background_color: '#ffffff',
          theme_color: '#2f9e44',
          icons: [
            { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        injectManifest: {
          // Pages come from the network first (web/sw.ts); everything they load is precached.
          globPatterns: ['**/*.{js,css,svg,png,woff2}'],
          globIgnores: ['**/*.map'],
          maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
          // Like the app's (decision 0622), no map is served; the worker is small enough to read as it is.
          sourcemap: false,
        },
      }),
      precompressAndHideMaps(),
    ],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
    build: {
      outDir: '../dist/web',
      emptyOutDir: true,
      // Written for whoever debugs a build, kept outside the served folder (see precompressAndHideMaps).
      sourcemap: 'hidden',
      chunkSizeWarningLimit: 1500,
      rolldownOptions: {
        output: {
          // Everything the first page needs travels as one file, not dozens (docs/decisions/0741); what pages
          // load on demand is split as the bundler sees fit.
          codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
        },
      },
    },
    server: {
      port: 5173,
      proxy: {
        '/api': `http://localhost:${apiPort}`,
        '/version.txt': `http://localhost:${apiPort}`,
      },
    },
  };
});
