// How much the JavaScript heap may grow past what is live before V8 collects it in full. By default it
// may grow to several times the live heap; cleaning a list of millions allocates fast enough that most
// of a process's peak memory was garbage waiting for that collection (1M rows: ~380 MB peak, ~265 MB
// with this, at the same speed, by `npm run bench`). Set once per process, by whatever runs cleans.
import { setFlagsFromString } from 'node:v8';

/** Each full collection lets the heap grow by at most this share of what it kept. */
const heapGrowingPercent = 60;

export function keepHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
