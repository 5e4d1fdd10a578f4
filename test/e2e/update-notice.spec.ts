// The app as `sift` runs it says when a newer single file is out: "A new version is ready" in the status
// bar, what changed, and Install, which takes the same checks as `sift update` and only when chosen. The
// feed is asked once a day, not at every page load.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { publicKeyText } from '../../electron/core/updates/release-files.ts';
import {
  currentVersion as current,
  installedFake,
  nextVersion as next,
  releaseFiles,
  startReleaseFeed,
  trustedKey,
} from '../support/release-feed.ts';
import { untilPrinted } from '../support/printed.ts';
import { expect, stopChild, test } from './web-host-fixture.ts';

const sift = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;

test('a new version is ready: what changed, and Install only when chosen', async ({ page }) => {
  const feed = await startReleaseFeed(await releaseFiles(next, trustedKey));
  const exe = installedFake(current);
  const data = mkdtempSync(join(tmpdir(), 'sift-update-e2e-'));
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', sift, 'app', '--no-open', '--data', data],
    {
      env: {
        ...process.env,
        SIFT_UPDATE_URL: feed.url,
        SIFT_UPDATE_EXECUTABLE: exe,
        SIFT_UPDATE_PUBLIC_KEY: publicKeyText(trustedKey),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const [, link] = await untilPrinted(child, /running at (\S+)/, 'the app', 30_000);
    await page.goto(link!);
    const notice = page.getByRole('button', { name: `A new version is ready: Sift ${next}` });
    await expect(notice).toBeVisible();
    // Nothing is downloaded by looking: only the signed list and what changed.
    expect([...feed.asked.keys()].sort()).toEqual(['CHANGES.txt', 'SHA256SUMS', 'SHA256SUMS.sig']);
    await notice.click();
    const panel = page.getByTestId('update-panel');
    await expect(panel).toContainText('- Faster at a million rows.');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/update-notice-${colorScheme}.png` });
      const { violations } = await new AxeBuilder({ page }).include('[data-testid="update-panel"]').analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
    await page.getByRole('button', { name: `Install Sift ${next}` }).click();
    await expect(page.getByTestId('update-said')).toContainText(`Sift ${next} is installed`);
    expect(execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim()).toBe(`sift ${next} (test)`);

    // A day's answer is kept: loading the page again asks the feed nothing.
    const asked = feed.asked.get('SHA256SUMS');
    await page.reload();
    await expect(page.getByText(`Sift ${current} · browser`)).toBeVisible();
    expect(feed.asked.get('SHA256SUMS')).toBe(asked);
  } finally {
    await Promise.all([stopChild(child, 'SIGINT'), feed.close()]);
  }
});
