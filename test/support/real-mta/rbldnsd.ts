// A real DNS blocklist server (Debian's rbldnsd) on loopback, serving zones from plain files as the lists
// mail servers query do: an address listed with its TXT text, and an address a list refuses to answer for
// (127.255.255.254, Spamhaus's "public resolver" code). A resolv.conf naming it, for an MTA run in a mount
// namespace of its own (see inOwnResolver), since the system resolver has no port setting.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { foreground, serverFolder, stopGroup } from './mta-process.ts';

const rbldnsdBinary = '/usr/sbin/rbldnsd';

export type BlocklistZone = { listed: string[]; text: string; refusedFor?: string[] };
export type RunningBlocklists = { resolver: string; resolvConf: string; stop(): Promise<void> };

export async function startRbldnsd(options: {
  ip: string;
  port: number;
  zones: Record<string, BlocklistZone>;
}): Promise<RunningBlocklists> {
  const folder = await serverFolder('rbldnsd');
  const specs: string[] = [];
  for (const [i, [zone, data]] of Object.entries(options.zones).entries()) {
    await writeFile(join(folder, `listed-${i}`), `:127.0.0.2:${data.text}\n${data.listed.join('\n')}\n`, {
      mode: 0o644,
    });
    specs.push(`${zone}:ip4set:listed-${i}`);
    if (data.refusedFor) {
      await writeFile(
        join(folder, `refused-${i}`),
        `:127.255.255.254:Public resolver\n${data.refusedFor.join('\n')}\n`,
        {
          mode: 0o644,
        },
      );
      specs.push(`${zone}:ip4set:refused-${i}`);
    }
  }
  const resolvConf = join(folder, 'resolv.conf');
  await writeFile(resolvConf, `nameserver ${options.ip}\n`, { mode: 0o644 });
  const output = { text: '' };
  const daemon = foreground(
    rbldnsdBinary,
    ['-n', '-f', '-r', folder, '-b', `${options.ip}/${options.port}`, '-u', 'nobody', ...specs],
    output,
  );
  const deadline = Date.now() + 10_000;
  while (!output.text.includes('started')) {
    if (Date.now() > deadline || daemon.exitCode !== null) throw new Error(`rbldnsd did not start:\n${output.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { resolver: `${options.ip}:${options.port}`, resolvConf, stop: () => stopGroup(daemon) };
}

/**
 * A command run in a mount namespace of its own whose /etc/resolv.conf is `resolvConf`: the MTA and every
 * process it starts look blocklists up there, and the machine's own resolver is untouched (root, as CI).
 */
export function inOwnResolver(resolvConf: string, command: string, args: string[]): [string, string[]] {
  const quoted = [command, ...args].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(' ');
  return ['unshare', ['-m', 'sh', '-c', `mount --bind '${resolvConf}' /etc/resolv.conf && exec ${quoted}`]];
}
