// What a mailing tool knows of what happened after its sends, as Sift reads it back (outcomes/): the
// addresses that bounced, hard or soft, with when and the tool's words, and, where the tool says so, who
// each send went to. Read a page at a time; `next` is where the next page starts, and once a read is done,
// where the next read starts (only what is new since).

/**
 * A bounce the tool recorded: `at` is when it happened, or the send it answered; `refused`, one the tool
 * says was not about the mailbox (the sender's reputation, the content).
 */
export type ToolBounce = { email: string; kind: 'hard' | 'soft' | 'refused'; at: number; words: string };

/** A send the tool made to an address (Mailchimp's campaign reports name every recipient). */
type ToolSend = { email: string; at: number };

export type BouncePage = {
  bounces: ToolBounce[];
  sends: ToolSend[];
  /** Where the read goes on; after the last page, where the next read starts. */
  next: string;
  /** This page was the read's last. */
  done: boolean;
};

/** A tool's bounces of `audience` from `cursor` (the first read without one). */
export type BounceReader = (audience: string, cursor: string | undefined) => Promise<BouncePage>;
