// Waits for a child process to print what a test needs from it: the app's link, a service's base URL.
import type { ChildProcess } from 'node:child_process';

/**
 * The first match of `pattern` in all `child` has printed on stdout. Fails, with `what` and the output so
 * far, when the child ends or cannot start first, or when `timeoutMs` passes.
 */
export function untilPrinted(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
  timeoutMs = 20_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const settle = (end: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      end();
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) settle(() => resolve(match));
    };
    const onExit = (code: number | null) =>
      settle(() => reject(new Error(`${what}: it exited with ${code} first; it printed: ${output}`)));
    const onError = (error: Error) => settle(() => reject(error));
    const timer = setTimeout(
      () => settle(() => reject(new Error(`${what}: not printed within ${timeoutMs / 1000} s; it printed: ${output}`))),
      timeoutMs,
    );
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
