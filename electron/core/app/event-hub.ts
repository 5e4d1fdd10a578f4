// One place main-side code emits push events; each transport subscribes and forwards them.
import { events, type EventName, type EventPayload } from '../../common/contract.ts';

type EventListener = (name: EventName, payload: unknown) => void;

/** How main-side code sends a push event (the hub's `emit`, handed to whoever needs it). */
export type Emit = <N extends EventName>(name: N, payload: EventPayload<N>) => void;

export type EventHub = {
  emit<N extends EventName>(name: N, payload: EventPayload<N>): void;
  subscribe(listener: EventListener): () => void;
};

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(name, payload) {
      // Checked here so that no transport ever pushes a payload the contract does not describe.
      const parsed = events[name].parse(payload);
      for (const listener of listeners) listener(name, parsed);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
