// A second `sift service` on loopback, standing in for a hosted service: a live key made with its
// dashboard commands, 1,000 credits, and its local engine pointed at a mail world on loopback.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { MailWorld } from '../support/mail-world.ts';
import { stopChild } from './web-host-fixture.ts';

const sift = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;
const node = (args: string[]) =>
  execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', sift, ...args], { encoding: 'utf8' });

export type HostedService = { baseUrl: string; liveKey: string; output: () => string; stop(): Promise<void> };

/**
 * `flags` come after the defaults here, so they win (for example a slower greylist schedule). With no mail
 * world, its live checks go nowhere a test needs: for what the service keeps besides checks.
 */
export async function startHostedService(world?: MailWorld, flags: string[] = []): Promise<HostedService> {
  const data = mkdtempSync(join(tmpdir(), 'sift-hosted-'));
  const liveKey = /(svc_live_\S+)/.exec(
    node(['service', 'keys', 'create', '--live', '--label', 'e2e', '--data', data]),
  )![1]!;
  node(['service', 'top-up', '1000', '--data', data]);
  const engineFlags = world
    ? ['--resolver', world.resolver, '--smtp-port', String(world.smtpPort), '--smtp-timeout', '0.5']
    : [];
  const allFlags = [
    ...engineFlags,
    '--helo',
    'probe.sift.test',
    '--mail-from',
    'bounces@sift.test',
    '--greylist-retry',
    '0.002',
    ...flags,
  ];
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', sift, 'service', '--data', data, ...allFlags],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sift service did not start: ${output}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /service at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    baseUrl,
    liveKey,
    output: () => output,
    stop: async () => {
      await stopChild(child);
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The app, from its Settings screen, sends lists to this service (or any at a URL) with its live key. */
export async function useHostedService(page: Page, hosted: Pick<HostedService, 'baseUrl' | 'liveKey'>): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByLabel('Service URL').fill(hosted.baseUrl);
  await page.getByLabel('API key').fill(hosted.liveKey);
  await page.getByRole('button', { name: 'Save and use this service' }).click();
}
