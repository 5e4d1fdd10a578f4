// The service's PostgreSQL schema written by a newer Sift is refused as the SQLite stores' are: the service
// does not start, says which version wrote the database and which this one reads, and leaves every table
// and row as it was. Only on PostgreSQL (`npm run test:postgres`).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startVerificationService } from '../../../../electron/core/service/verification-service.ts';
import { testDatabase, testServicePlace } from '../../../support/service-harness.ts';
import { sandboxEngine } from '../../../../electron/core/service/engines/sandbox-engine.ts';

/** Every table's rows, as text: what "left as it was" is compared on. */
async function snapshot(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      )
    ).rows.map((row) => row.name);
    const parts: string[] = [];
    for (const table of tables) {
      const rows = await client.query(`SELECT * FROM ${client.escapeIdentifier(table)} ORDER BY 1`);
      parts.push(`${table}: ${JSON.stringify(rows.rows)}`);
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

describe.runIf(testDatabase === 'postgres')('a PostgreSQL database a newer Sift wrote', () => {
  it('is refused with both versions named, and left as it was', async () => {
    const place = await testServicePlace();
    const first = await startVerificationService(place, sandboxEngine);
    await first.dashboard.createKey('live', 'kept');
    await first.close();
    // A newer Sift migrated it further than this one knows.
    const client = new pg.Client({ connectionString: place.database! });
    await client.connect();
    const current = (await client.query<{ version: number }>('SELECT version FROM sift_schema')).rows[0]!.version;
    await client.query('UPDATE sift_schema SET version = $1', [current + 1]);
    await client.end();
    const before = await snapshot(place.database!);

    const refused = await startVerificationService(place, sandboxEngine).then(
      (service) => service.close().then(() => undefined),
      (error: unknown) => error as Error,
    );
    expect(refused?.name).toBe('NewerDataError');
    expect(refused?.message).toBe(
      `The PostgreSQL database was written by a newer Sift: its schema is version ${current + 1}, and this Sift ` +
        `reads up to ${current}. It is left as it is: run the newer Sift against it.`,
    );
    expect(await snapshot(place.database!)).toBe(before);
  });
});
