// How much memory the service grows by while it takes a 100 MB upload: well under a quarter of the file.
// A figure read from the process's peak RSS, which a loaded machine moves: it is in the timing tier
// (`npm run test:timing`); `npm test` checks the upload is taken under a heap too small to hold it
// (crash-and-scale.test.ts).
import { expect, it, onTestFinished } from 'vitest';
import { bigUploadRows, uploadBigCsv } from '../../support/big-upload.ts';
import { startChildService, type ChildService } from '../../support/child-service.ts';
import { prepareKey, testServicePlace } from '../../support/service-harness.ts';

it('grows by well under a quarter of a 100 MB upload while it takes it', async () => {
  const place = await testServicePlace();
  const key = await prepareKey(place, {
    mode: 'live',
    limits: { batchStatus: { limit: 100_000, windowSeconds: 60 } },
    topUp: 100_000,
  });
  // A 1 MB young generation keeps garbage from padding the figure, and probing is slowed right down so
  // that only the upload's own memory is measured, not the worker's afterwards.
  const service: ChildService = await startChildService({ ...place, sandboxProbesPerSecondPerHost: 1 }, [
    '--max-old-space-size=64',
    '--max-semi-space-size=1',
  ]);
  onTestFinished(() => service.kill());
  // A small upload first: what any first upload loads once (its modules, its statements) is not the big
  // file's memory. A clean-clone CI run once read 25.5 MB here where runs read 11 to 15.
  const warm = await fetch(`${service.baseUrl}/files?name=warm`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' },
    body: 'email\nwarm@big.example\n',
  });
  expect(warm.status).toBe(201);
  const before = service.peakRssKb();
  const { size, status, body } = await uploadBigCsv(service, key, place.dataDir);
  expect(status).toBe(201);
  expect(body).toMatchObject({ submitted: bigUploadRows });
  const grownMb = (service.peakRssKb() - before) / 1024;
  console.info(`upload memory: grew ${grownMb.toFixed(1)} MB for a ${(size / 1024 / 1024).toFixed(0)} MB file`);
  expect(grownMb).toBeLessThan((0.25 * size) / 1024 / 1024);
}, 60_000);
