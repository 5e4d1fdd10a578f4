// What the job threads (the import's writer, the export's reader) share with the thread that starts
// them: where their files are, and how a failure crosses from one thread to the other.

/** A failure as it crosses threads: what the other side needs to tell it as it would its own. */
export type ThreadFailure = { message: string; code?: string; errcode?: number };

/**
 * A thread's file, beside the module that starts it (`from`, its import.meta.url): its TypeScript source
 * where Sift runs from source (tests, the CLI), the built file where it runs from the bundle
 * (vite.config.ts builds every thread beside main.js).
 */
export const threadFile = (from: string, source: string, built: string): URL =>
  new URL(from.endsWith('.ts') ? source : built, from);

/** The message, and an error code when there is one (an SQLite error's, say). */
export function describeFailure(error: unknown): ThreadFailure {
  const { message, code, errcode } = error as { message?: string; code?: unknown; errcode?: unknown };
  return {
    message: String(message ?? error),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof errcode === 'number' ? { errcode } : {}),
  };
}

/** The failure as an error on this side, with its code. */
export const failureError = (failure: ThreadFailure): Error => Object.assign(new Error(failure.message), failure);
