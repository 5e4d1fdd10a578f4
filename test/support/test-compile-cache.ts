// Where the `sift` processes, web hosts and threads the tests start keep their compiled modules
// (electron/core/app/compile-cache.ts): one folder for vitest and Playwright, not the person's cache folder.
export const testCompileCache = new URL('../../node_modules/.cache/sift-compiled-modules', import.meta.url).pathname;
