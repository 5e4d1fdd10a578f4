// Option parsing shared by the command-line entry points.

/** A mistake in how a command was typed: the message is shown with exit code 2. */
export class UsageError extends Error {}

/** A TCP port from a flag: 0 (any free port) to 65535. */
export function parsePort(value: string, flag = '--port'): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`${flag} must be a whole number from 0 to 65535, got "${value}".`);
  }
  return port;
}

/**
 * `--allow-private-webhooks`, or SIFT_ALLOW_PRIVATE_WEBHOOKS=yes (the server package's settings file): the
 * service's webhooks may go to this computer and private networks. Said explicitly, never by default.
 */
export function allowsPrivateWebhooks(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return flag === true || /^(1|yes|true)$/i.test(env.SIFT_ALLOW_PRIVATE_WEBHOOKS ?? '');
}
