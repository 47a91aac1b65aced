import { randomBytes } from 'node:crypto';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig(({ command }) => {
  const buildId =
    command === 'build'
      ? `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${randomBytes(4).toString('hex')}`
      : 'development';
  const apiPort = process.env.PORT ?? '3000';
  return {
    root: 'web',
    publicDir: 'public',
    plugins: [react(), buildVersion(buildId)],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
    build: {
      outDir: '../dist/web',
      emptyOutDir: true,
      sourcemap: true,
      chunkSizeWarningLimit: 1500,
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
