/// <reference types="vite/client" />

/** The build's id, compiled in by vite.config.ts; compared with /version.txt to announce a new version. */
declare const __BUILD_ID__: string;
