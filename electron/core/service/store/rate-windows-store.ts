// Calls per rate-limit window, counted in the database: every service process on it shares the count.
import type { SqlConnection } from '../../storage/sql-connection.ts';

/**
 * Counts one call in the window if it has room; answers the calls counted so far, or undefined when the
 * window was full. One statement, atomic in both engines: processes answering the same key at once can
 * never count more than `limit` between them.
 */
export async function countCall(
  db: SqlConnection,
  window: { bucket: string; start: number; end: number },
  limit: number,
): Promise<number | undefined> {
  const counted = await db.get<{ used: number }>(
    `INSERT INTO rate_windows (bucket, window_start, expires_at, used) VALUES (?, ?, ?, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET used = rate_windows.used + 1
     WHERE rate_windows.used < ? RETURNING used`,
    [window.bucket, window.start, window.end, limit],
  );
  return counted?.used;
}

export async function forgetEndedWindows(db: SqlConnection, now: number): Promise<void> {
  await db.run('DELETE FROM rate_windows WHERE expires_at < ?', [now]);
}
