// Shared by both transports: validate a call's name and argument against the contract,
// run its handler, and answer an envelope. Nothing reaches a handler unparsed.
import { z } from 'zod';
import { calls, type CallName, type CallResult, type Envelope, type ParsedRequest } from '../../common/contract.ts';
import { AppError } from '../../common/app-error.ts';

type Transport = 'ipc' | 'web';
export type CallContext = { transport: Transport };

export type Handlers = {
  [N in CallName]: (request: ParsedRequest<N>, context: CallContext) => Promise<CallResult<N>>;
};

export type Dispatch = (name: string, rawRequest: unknown, context: CallContext) => Promise<Envelope<unknown>>;

function isCallName(name: string): name is CallName {
  return Object.hasOwn(calls, name);
}

export function createDispatch(handlers: Handlers, log: (message: string) => void = console.error): Dispatch {
  return async (name, rawRequest, context) => {
    if (!isCallName(name)) return failure('not_found', `Unknown call "${name}".`);
    const parsed = calls[name].request.safeParse(rawRequest ?? {});
    if (!parsed.success) {
      return failure('bad_request', `Bad arguments for ${name}: ${z.prettifyError(parsed.error)}`);
    }
    try {
      const handler = handlers[name] as (request: unknown, context: CallContext) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data, context) };
    } catch (error) {
      if (error instanceof AppError) return failure(error.code, error.message);
      // Unexpected failures are logged in main with their detail and shown to people without it.
      log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return failure('internal', 'Something went wrong in Sift. The details were written to its log.');
    }
  };
}

export function failure(code: AppError['code'], message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}
