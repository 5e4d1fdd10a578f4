// The local engine's pacing against mail servers on loopback: many hosts, each allowed `rate` probes a
// second, straight out and again through a SOCKS5 proxy (the servers then answer only its address). From
// the servers' own logs: how close each host came to its bound (goal: ≥ 90%), and whether any window ever
// went over it (goal: never). Figures only, never asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineService } from '../support/engine-harness.ts';
import { startMailWorld, type HostScript } from '../support/mail-world.ts';
import { worstExcess } from '../support/pacing.ts';
import { startSocks5Server } from '../support/socks5-server.ts';
import { parseProxyUrl } from '../../electron/core/service/engines/live/socks-proxy.ts';

/** The servers stamp a probe when their (shared) event loop gets to it: a few milliseconds late at times. */
const jitterMs = 15;

export async function runEngineBench(options = { hosts: 24, perHost: 60, rate: 20 }): Promise<void> {
  await runPacing({ ...options, viaProxy: false });
  await runPacing({ ...options, viaProxy: true });
}

async function runPacing(options: { hosts: number; perHost: number; rate: number; viaProxy: boolean }): Promise<void> {
  const { hosts, perHost, rate, viaProxy } = options;
  const names = Array.from({ length: hosts }, (_, i) => `host${i}`);
  const world = await startMailWorld({
    hosts: Object.fromEntries(
      names.map((name, i): [string, HostScript] => [`mx.${name}.test`, { ip: `127.0.1.${i + 2}`, others: 'accept' }]),
    ),
    domains: Object.fromEntries(names.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
  });
  const egress = '127.0.1.250';
  const proxy = viaProxy ? await startSocks5Server({ egress }) : undefined;
  if (proxy) world.acceptOnlyFrom([egress], { firewall: true });
  // A folder of the bench's own, removed after: outside a test run, the system's temp folder is no one's to clean.
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-engine-bench-'));
  const run = await startEngineService(
    world,
    {
      perHostRate: rate,
      perHostConcurrency: 2,
      concurrency: 64,
      ...(proxy ? { proxies: [parseProxyUrl(proxy.url)] } : {}),
    },
    undefined,
    { dataDir },
  );
  try {
    const emails = names.flatMap((name) => Array.from({ length: perHost }, (_, i) => `p${i}@${name}.test`));
    await run.service.dashboard.topUp(emails.length);
    const started = performance.now();
    const created = await run.api('POST', '/batches', { name: 'bench', emails });
    if (created.status !== 201) throw new Error(`the bench batch was refused: ${created.text}`);
    const id = created.body.id as string;
    for (let polls = 0; polls < 6000; polls += 1) {
      if ((await run.api('GET', `/batches/${id}`)).body.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const achieved: number[] = [];
    let worstRaw = -Infinity;
    let worstBeyondJitter = -Infinity;
    for (const name of names) {
      const times = world.logs[`mx.${name}.test`]!.rcpts.map((rcpt) => rcpt.at).sort((a, b) => a - b);
      achieved.push((times.length - 1) / ((times.at(-1)! - times[0]!) / 1000) / rate);
      worstRaw = Math.max(worstRaw, worstExcess(times, rate, 0));
      worstBeyondJitter = Math.max(worstBeyondJitter, worstExcess(times, rate, jitterMs));
    }
    achieved.sort((a, b) => a - b);
    const probes = hosts * (perHost + 1);
    const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
    console.log(
      `\nlocal engine pacing${proxy ? ', through a SOCKS5 proxy' : ''}: ${hosts} mail hosts on loopback × ${perHost} addresses, ${rate} probes/s per host`,
    );
    console.log(
      `  whole batch         ${seconds.toFixed(2).padStart(7)} s  (${probes} probes; ideal ${((perHost + 1) / rate).toFixed(2)} s)`,
    );
    console.log(
      `  per-host rate       slowest ${pct(achieved[0]!)}, median ${pct(achieved[Math.floor(hosts / 2)]!)} of the bound`,
    );
    const over = (excess: number) => (excess <= 0 ? 'never' : `by ${excess.toFixed(2)} probes in some window`);
    console.log(`  over the bound      ${over(worstBeyondJitter)} (allowing ${jitterMs} ms of delivery jitter)`);
    console.log(`                      raw: ${over(worstRaw)}`);
  } finally {
    await run.service.close();
    await proxy?.kill();
    await world.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runEngineBench();
