// A finished clean is never paid for twice: running the same command again writes the files again and
// sends nothing; an export that fails (folder not writable) exits 6 and keeps the job, and the next run
// exports it without a request to the service beyond the key check.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { startFaultProxy } from '../../support/fault-proxy.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { addresses, startTestService } from '../../support/service-harness.ts';

let service: VerificationService;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let key: string;

beforeAll(async () => {
  // Live keys get the sandbox's scripted verdicts here (no mail servers); paced fast, as one mail host is all it has.
  service = await startTestService({ probesPerSecondPerHost: 10_000 });
  const created = await service.dashboard.createKey('live', 'rerun');
  await service.dashboard.setKeyRateLimits(created.record.id, { batchStatus: { limit: 10_000, windowSeconds: 60 } });
  await service.dashboard.topUp(10_000);
  key = created.key;
  // Every request passes; the proxy only counts what the CLI sends.
  proxy = await startFaultProxy(service.baseUrl, () => ({ kind: 'forward' }));
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const writes = () => proxy.seen.filter((request) => request.method === 'POST').length;
const spent = async () => {
  const account = await service.dashboard.account();
  return 100 - account.freeRemaining + (10_000 - account.balance);
};

describe('sift clean, run again', () => {
  it('exports a finished list again without sending it, and keeps a job whose export failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-rerun-'));
    const input = join(dir, 'members.csv');
    await writeFile(
      input,
      `email,name\n${addresses(300, 'rerun.example', 'valid')
        .map((a, i) => `${a},N${i}`)
        .join('\n')}\n`,
    );
    const env = { SIFT_API_KEY: key, SIFT_DATA_DIR: join(dir, 'data') };
    const args = ['clean', input, '--base-url', proxy.baseUrl];

    const first = await runSiftHere(args, env);
    expect(first.code).toBe(0);
    expect(await spent()).toBe(300);
    const annotated = await readFile(join(dir, 'members.annotated.csv'));
    const postsAfterFirst = writes();

    const again = await runSiftHere([...args, '--keep', 'valid,catch_all'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('cleaned before');
    expect(writes()).toBe(postsAfterFirst);
    expect(await spent()).toBe(300);
    expect((await readFile(join(dir, 'members.annotated.csv'))).equals(annotated)).toBe(true);

    // A folder even root may not write to (sysfs); an unprivileged run would get EACCES the same way.
    const unwritable = await runSiftHere([...args, '--out', '/sys'], env);
    expect(unwritable.code).toBe(6);
    expect(unwritable.stderr).toContain('may not write to /sys');
    expect(unwritable.stderr).toContain('run the same command again');
    const out = await mkdtemp(join(tmpdir(), 'sift-rerun-out-'));
    const exported = await runSiftHere([...args, '--out', out], env);
    expect(exported.code).toBe(0);
    expect(writes()).toBe(postsAfterFirst);
    expect(await spent()).toBe(300);
    expect((await readFile(join(out, 'members.annotated.csv'))).equals(annotated)).toBe(true);

    // --restart --no-cache checks it again, and is paid for again (--restart alone would reuse the verdicts).
    expect((await runSiftHere([...args, '--restart', '--no-cache'], env)).code).toBe(0);
    expect(await spent()).toBe(600);
  }, 120_000);
});
