// VERP (variable envelope return path): a sender that writes each recipient into its return address,
// `bounces+ann=example.com@send.example`, learns from where a bounce arrives whom it was about, even
// when the bounce itself names nobody. Postfix's default delimiters are `+` and `=`
// (https://www.postfix.org/postconf.5.html#default_verp_delimiters); qmail and Mailman write the same form.
import { precheckAddress } from '../email/address-precheck.ts';

/** The recipient a VERP address stands for, lower-cased; undefined when it is not one. */
export function verpRecipient(header: string): string | undefined {
  const address = /<([^>]+)>/.exec(header)?.[1] ?? header.trim();
  const match = /^[^+@\s]+\+([^@=\s]+)=([^@=\s]+)@[^@\s]+$/.exec(address);
  if (!match) return undefined;
  const check = precheckAddress(`${match[1]}@${match[2]}`);
  return check.ok ? check.key : undefined;
}
