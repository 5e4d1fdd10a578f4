// A call into the app's runtime as a renderer makes it, over IPC or the web host: the request parsed by
// the contract, the answer unwrapped from its envelope, a refusal thrown with its code. `seen` keeps every
// envelope as sent, for tests that look for a key where none may be.
import type { AppRuntime } from '../../electron/core/app/app-runtime.ts';

export function appCaller(transport: 'ipc' | 'web', seen?: string[]) {
  return async function call<T>(runtime: AppRuntime, name: string, request: unknown): Promise<T> {
    const envelope = await runtime.dispatch(name, request, { transport });
    seen?.push(JSON.stringify(envelope));
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value as T;
  };
}
