// Kills a service process at a moment it holds shared work (a batch's chunks, a live domain), so a test of
// the take-over never passes by catching it between rounds. The process runs freely while the database is
// watched; once it is seen holding work it is frozen (SIGSTOP), asked about again once what it sent before
// freezing has landed, and killed (SIGKILL) if it still holds some, else let go on (SIGCONT). Freezing only
// when it holds something keeps it from being starved while the other processes finish the work.
import type { ChildService } from './child-service.ts';

export async function killWhileHolding(
  target: ChildService,
  held: () => Promise<string[]>,
  withinMs = 30_000,
): Promise<{ at: number; held: string[] }> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await held()).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 30));
      continue;
    }
    target.child.kill('SIGSTOP');
    // A commit it sent just before it froze may still land: let it, so what is read is what it holds.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const holding = await held();
    if (holding.length > 0) {
      const at = Date.now();
      await target.kill();
      return { at, held: holding };
    }
    target.child.kill('SIGCONT');
  }
  throw new Error(`${target.processId} held no work within ${withinMs / 1000} s`);
}

/** When a line matching `pattern` first appeared in the process's stderr, if it did. */
export function firstLogged(target: ChildService, pattern: RegExp): number | undefined {
  return target.log.find((entry) => pattern.test(entry.line))?.at;
}
