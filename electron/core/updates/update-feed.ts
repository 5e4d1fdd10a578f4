// Where `sift update` asks for the newest release, and what it accepts from there: SHA256SUMS whose
// signature verifies with the key built into this file, naming an archive for this computer of a version
// after this one (so an old release, validly signed, is never taken for new), and CHANGES.txt if its hash
// is listed. Everything is read over https (http only to this computer, for trying a feed locally).
import { createHash } from 'node:crypto';
import { downloadFor, isNewer, parseSums, releasedVersion, releaseFiles, sumsSigned } from './release-files.ts';

/**
 * The project's release address, on paper until there is one: SIFT_UPDATE_URL names a real feed (a
 * folder holding a release's files as `npm run dist` writes them), and `off` turns updates off.
 */
const defaultUpdateFeed = 'https://releases.sift.invalid/latest/';

export class UpdateError extends Error {}
/** A file of the feed past what such a file can be: unusable input (the CLI's exit 2), not an unreachable feed. */
export class UpdateLimitError extends UpdateError {}

/** The feed from the environment, checked; null when updates are off. */
export function updateFeed(env: NodeJS.ProcessEnv = process.env): URL | null {
  const text = env.SIFT_UPDATE_URL?.trim() || defaultUpdateFeed;
  if (text === 'off') return null;
  if (!URL.canParse(text)) throw new UpdateError(`SIFT_UPDATE_URL is not a URL: "${text}".`);
  const url = new URL(text.endsWith('/') ? text : `${text}/`);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new UpdateError(`SIFT_UPDATE_URL must be https (an update is code this computer will run), not "${text}".`);
  }
  if (url.username || url.password) throw new UpdateError('SIFT_UPDATE_URL may not carry a user or password.');
  return url;
}

/** The newest release, verified, when it is newer than this Sift. */
export type NewerRelease = {
  version: string;
  changes: string;
  archive: { url: URL; name: string; sha256: string; executable: string };
};

/** How long a small file of the feed may take (30 s; SIFT_UPDATE_TIMEOUT_MS for a slow link, or a test). */
const feedTimeoutMs = () => Number(process.env.SIFT_UPDATE_TIMEOUT_MS) || 30_000;

/** The most a release's small file (SHA256SUMS, its signature, CHANGES.txt) may be: it is read into memory. */
const feedFileLimit = 1024 * 1024;

/** Reads a small file of the release, or undefined when it is not there (404); stopped at `feedFileLimit`. */
async function readFromFeed(feed: URL, name: string): Promise<Buffer | undefined> {
  const url = new URL(name, feed);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(feedTimeoutMs()) });
  } catch (error) {
    throw new UpdateError(`The update feed ${feed.href} could not be reached (${describe(error)}).`);
  }
  if (response.status === 404) return undefined;
  if (!response.ok) throw new UpdateError(`The update feed answered HTTP ${response.status} for ${name}.`);
  const chunks: Buffer[] = [];
  await readBounded(response, name, feedFileLimit, (chunk) => void chunks.push(chunk));
  return Buffer.concat(chunks);
}

/**
 * Reads a feed's answer as it arrives, never more than `limit` bytes (its Content-Length, and then what
 * comes, counted): past it, or when it stalls or breaks off, an UpdateError in words.
 */
export async function readBounded(
  response: Response,
  name: string,
  limit: number,
  onChunk: (chunk: Buffer) => void | Promise<void>,
): Promise<void> {
  const tooLarge = () =>
    new UpdateLimitError(`The update feed's ${name} is larger than ${sizeWords(limit)}: not taken.`);
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > limit) throw tooLarge();
      await onChunk(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof UpdateError) throw error;
    throw new UpdateError(
      `The update feed stopped sending ${name} part way (${describe(error)}): nothing was changed.`,
    );
  }
}

const sizeWords = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

const describe = (error: unknown) => {
  if (error instanceof Error && error.name === 'TimeoutError') return 'it stopped answering';
  return error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
};

/**
 * Asks the feed for its release and verifies it: answers it when it is newer than `currentVersion`,
 * undefined when this Sift is the newest; throws UpdateError, in words, for anything that does not verify.
 */
export async function newerRelease(
  feed: URL,
  currentVersion: string,
  publicKey: string | undefined,
): Promise<NewerRelease | undefined> {
  if (!publicKey) {
    throw new UpdateError(
      'This Sift was built without a signing key, so it cannot check an update is genuine and does not update itself: download the new version by hand.',
    );
  }
  const sums = await readFromFeed(feed, releaseFiles.sums);
  if (!sums) throw new UpdateError(`The update feed ${feed.href} has no ${releaseFiles.sums}.`);
  const signature = await readFromFeed(feed, releaseFiles.signature);
  if (!signature)
    throw new UpdateError(`The release at ${feed.href} is not signed (no ${releaseFiles.signature}): not taken.`);
  if (!sumsSigned(sums, signature.toString('utf8'), publicKey)) {
    throw new UpdateError(`The release at ${feed.href} is not signed by Sift's key: not taken.`);
  }
  const files = parseSums(sums.toString('utf8'));
  const version = releasedVersion(files.keys());
  if (!version)
    throw new UpdateError(`The release at ${feed.href} has no download for ${process.platform}-${process.arch}.`);
  if (!isNewer(version, currentVersion)) return undefined;
  const { archive, executable } = downloadFor(version);
  let changes = '';
  const changesHash = files.get(releaseFiles.changes);
  if (changesHash) {
    const text = await readFromFeed(feed, releaseFiles.changes);
    if (text && createHash('sha256').update(text).digest('hex') === changesHash) changes = text.toString('utf8').trim();
  }
  return {
    version,
    changes,
    archive: { url: new URL(archive, feed), name: archive, sha256: files.get(archive)!, executable },
  };
}
