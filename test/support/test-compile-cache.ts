// Where the `sift` processes, web hosts and threads the tests start keep their compiled modules
// (electron/core/app/compile-cache.ts): one folder for vitest and Playwright, not the person's cache folder.
export const testCompileCache = new URL('../../node_modules/.cache/sift-compiled-modules', import.meta.url).pathname;

/**
 * Node 24 still calls node:sqlite experimental and says so once in every process and thread that loads it:
 * about a thousand lines of a run's output. The app's entry points pass the same flag (package.json, sift.ts);
 * set before the test runners start their workers, the processes those start inherit it.
 */
export function quietExperimentalWarnings(): void {
  const flag = '--disable-warning=ExperimentalWarning';
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(flag)) process.env.NODE_OPTIONS = `${options} ${flag}`.trim();
}
