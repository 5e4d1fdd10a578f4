// `sift service --role` as a team runs it: an API process and a worker process on one PostgreSQL
// database, and the roles refused where they cannot work.
import { afterEach, describe, expect, it } from 'vitest';
import { runSift } from '../../../support/run-sift.ts';
import { testDatabase, testServicePlace } from '../../../support/service-harness.ts';

const running: ReturnType<typeof runSift>[] = [];
afterEach(async () => {
  for (const run of running.splice(0)) {
    run.child.kill('SIGINT');
    await run;
  }
});

/** Starts `sift service` with these arguments and waits (bounded) until it says it is ready. */
async function startService(args: string[], env: Record<string, string>): Promise<string> {
  const run = runSift(['service', ...args], env, 30_000);
  running.push(run);
  let output = '';
  run.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !output.includes('Press Ctrl-C'); waited += 50) {
    if (waited > 15_000 || run.child.exitCode !== null) throw new Error(`sift service did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return output;
}

describe('sift service --role', () => {
  it('refuses a role it does not know, and the split roles without a shared database', async () => {
    const { dataDir } = await testServicePlace();
    const unknown = await runSift(['service', '--role', 'both', '--data', dataDir], { SIFT_DATABASE_URL: '' });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--role is all, api or worker, not both/);
    const alone = await runSift(['service', '--role', 'worker', '--data', dataDir], { SIFT_DATABASE_URL: '' });
    expect(alone.code).not.toBe(0);
    expect(alone.stderr).toMatch(/needs a PostgreSQL database/);
  });

  it.skipIf(testDatabase !== 'postgres')('runs the API and the workers as separate processes', async () => {
    const { dataDir, database } = await testServicePlace();
    const env = { SIFT_DATABASE_URL: database! };
    const api = await startService(['--role', 'api', '--data', dataDir], env);
    const baseUrl = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(api)?.[1];
    const key = /(svc_test_[A-Za-z0-9_-]+)/.exec(api)?.[1];
    expect(baseUrl).toBeDefined();
    const worker = await startService(['--role', 'worker', '--data', dataDir], env);
    expect(worker).toMatch(/verification workers started/);
    expect(worker).not.toMatch(/http:\/\//);
    expect(worker).not.toMatch(/svc_test_/);
    const account = await fetch(`${baseUrl}/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await account.json()).toMatchObject({ mode: 'sandbox' });
  });
});
