// The renderer-facing shape of the contract, `sift.<domain>.<verb>(request)` and
// `sift.<domain>.onDid<Thing>(listener)`, built the same way for both transports.
import {
  callNames,
  eventNames,
  type CallName,
  type CallRequest,
  type CallResult,
  type Envelope,
  type EventName,
  type EventPayload,
  type FileRef,
} from './contract.ts';
import { AppError } from './app-error.ts';

type DomainOf<K> = K extends `${infer D}:${string}` ? D : never;
type VerbOf<K> = K extends `${string}:${infer V}` ? V : never;
type ListenerName<K> = `on${Capitalize<VerbOf<K>>}`;

type Unsubscribe = () => void;

export type SiftApi = {
  [D in DomainOf<CallName | EventName>]: {
    [K in CallName as DomainOf<K> extends D ? VerbOf<K> : never]: {} extends CallRequest<K>
      ? (request?: CallRequest<K>) => Promise<CallResult<K>>
      : (request: CallRequest<K>) => Promise<CallResult<K>>;
  } & {
    [K in EventName as DomainOf<K> extends D ? ListenerName<K> : never]: (
      listener: (payload: EventPayload<K>) => void,
    ) => Unsubscribe;
  };
};

/** What `window.sift` holds: the contract plus how the transport hands a dropped file to main. */
export type SiftBridge = SiftApi & {
  files: {
    stage(file: File): Promise<FileRef>;
    /** A link that downloads an exported file over this transport (the web host's carries a one-use ticket). */
    downloadLink(downloadPath: string): Promise<string>;
  };
};

export type Invoke = (name: CallName, request: unknown) => Promise<Envelope<unknown>>;
export type Subscribe = (name: EventName, listener: (payload: unknown) => void) => Unsubscribe;

export function listenerNameOf(event: EventName): string {
  const verb = event.slice(event.indexOf(':') + 1);
  return `on${verb[0]!.toUpperCase()}${verb.slice(1)}`;
}

/** Builds the named API from a transport's invoke and subscribe; nothing else is exposed. */
export function buildSiftApi(invoke: Invoke, subscribe: Subscribe): SiftApi {
  const api: Record<string, Record<string, unknown>> = {};
  const domain = (name: string) => (api[name.slice(0, name.indexOf(':'))] ??= {});
  for (const name of callNames) {
    domain(name)[name.slice(name.indexOf(':') + 1)] = async (request: unknown = {}) => {
      const envelope = await invoke(name, request);
      if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message);
      return envelope.value;
    };
  }
  for (const name of eventNames) {
    domain(name)[listenerNameOf(name)] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${name}: listener must be a function`);
      return subscribe(name, listener);
    };
  }
  return api as SiftApi;
}
