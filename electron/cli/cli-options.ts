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
