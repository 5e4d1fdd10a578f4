// `npm run web`: Sift's real main-process code behind the loopback web host, for any browser.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../core/app/app-paths.ts';
import { keepCompiledModules } from '../core/app/compile-cache.ts';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const defaultRendererDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

export async function runWebHost(argv: string[]): Promise<void> {
  // Loaded once the compiled-module cache is on, so a second start reads them compiled.
  keepCompiledModules();
  const [{ createAppRuntime }, { startWebHost }, { smtpFlagOptions, smtpSettingsFromFlags }] = await Promise.all([
    import('../core/app/app-runtime.ts'),
    import('../core/web-host/web-host.ts'),
    import('./smtp-flags.ts'),
  ]);
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string' },
      renderer: { type: 'string', default: defaultRendererDir },
      // The live-check flags of `sift service`, over what Settings says (a resolver, a test's SMTP port).
      ...smtpFlagOptions,
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got "${values.port}"`);
  const smtp = smtpSettingsFromFlags(values);
  const runtime = await createAppRuntime({
    dataDir: values.data ?? defaultDataDir(),
    appVersion: packageJson.version,
    ...(Object.keys(smtp).length > 0 ? { service: { smtp } } : {}),
  });
  const host = await startWebHost({ ...runtime, rendererDir: values.renderer, port });
  console.log(`Sift is running at ${host.url}`);
  console.log("Open that link in a browser (it carries this run's access token). Press Ctrl-C to stop.");
  const stop = async () => {
    await host.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) {
  runWebHost(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`sift web: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  });
}
