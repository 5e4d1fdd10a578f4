// The PostgreSQL run of the service suite: one server for the whole run, a fresh database per service.
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of the test server's `postgres` database: the harness makes a database per service from it. */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
