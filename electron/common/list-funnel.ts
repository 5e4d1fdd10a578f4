// The one funnel every count of a list follows, each row counted once, in this order:
//   rows → no address → bad syntax → duplicates → suppressed → ruled → to check → the service's verdicts (+ not yet checked)
// with role, disposable and likely-typo as flags on the addresses to check. The review and results
// screens, the summary JSON, the CLI and the annotated file's sift_result all use these names.

/** `sift_result` of a row whose address cell is empty. */
export const noAddressResult = 'no_address';
/** `sift_result` of a row whose address cannot be an address; settled by Sift, never sent or billed. */
export const badSyntaxResult = 'bad_syntax';
/** `sift_result` of an address on the do-not-mail list; settled by Sift, never sent, billed or kept. */
export const suppressedResult = 'suppressed';
/** `sift_result` of an address a person's rule for its domain decided (kept, left out or not checked); never sent or billed. */
export const ruledResult = 'ruled';
/** `sift_result` of an address the job ended before checking. */
export const unverifiedResult = 'unverified';
