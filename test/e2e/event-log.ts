// A copy of every server-sent event a page hears, where a test can read it: the event stream never ends,
// so its text cannot be read from the response as other answers are.
import type { Page } from '@playwright/test';

/** Starts keeping the events; call before the page loads. */
export async function recordServerEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: string[] = [];
    (window as { siftEventLog?: string[] }).siftEventLog = log;
    const original = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (String(input).includes('/api/events') && response.body) {
        const reader = response.clone().body!.pipeThrough(new TextDecoderStream()).getReader();
        void (async () => {
          for (let read = await reader.read(); !read.done; read = await reader.read()) log.push(read.value);
        })();
      }
      return response;
    };
  });
}

/** The events' text heard so far, piece by piece. */
export const serverEvents = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as { siftEventLog?: string[] }).siftEventLog ?? []);
