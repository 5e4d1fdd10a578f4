// What the job threads (the import's writer, the export's reader) share with the thread that starts
// them: how a failure crosses from one thread to the other (own-files.ts says where their code is).

/** A failure as it crosses threads: what the other side needs to tell it as it would its own. */
export type ThreadFailure = { message: string; code?: string; errcode?: number };

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
