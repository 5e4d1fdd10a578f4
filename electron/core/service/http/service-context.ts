// What every request handler of the /v1 interface is given: the service's parts, and the call itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { CursorCodec } from '../cursors.ts';
import type { RateLimiter } from '../rate-limiter.ts';
import type { VerificationEngine } from '../engines/engine.ts';
import type { RateLimitOperation, ServiceConfig } from '../service-config.ts';
import type { ApiKeyRecord } from '../store/keys-store.ts';

export type ServiceContext = {
  db: SqlConnection;
  config: ServiceConfig;
  limiter: RateLimiter;
  /** This service process's id: what it claims (uploads, requests mid-way) is named after it. */
  processId: string;
  cursors: CursorCodec;
  engines: Record<'live' | 'sandbox', VerificationEngine>;
};

/** An authenticated call on a route: the key, the path's parameters, the URL and the exchange. */
export type Call = {
  key: ApiKeyRecord;
  params: string[];
  url: URL;
  request: IncomingMessage;
  response: ServerResponse;
};

export type Route = {
  method: string;
  pattern: RegExp;
  /** The rate budget the call counts against. */
  operation: RateLimitOperation;
  handle(context: ServiceContext, call: Call): Promise<void>;
};
