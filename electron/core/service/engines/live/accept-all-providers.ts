// Mail providers that accept every recipient at RCPT TO and refuse unknown ones only after a message is
// sent (or not at all), by their MX hosts. Sift's catch-all probe already finds them (the improbable
// address is accepted); this table lets the reason and the score say it is the provider's way, with where
// that was seen.

type AcceptAllProvider = { name: string; mxSuffixes: readonly string[]; seen: string };

const acceptAllProviders: readonly AcceptAllProvider[] = [
  {
    name: 'Yahoo/AOL',
    mxSuffixes: ['yahoodns.net', 'yahoo.com', 'aol.com'],
    seen:
      'truemail-rb/truemail-go issue 91 (a swaks session: the yahoodns.net MX answers 250 to an address that ' +
      'does not exist and refuses it after DATA); AfterShip/email-verifier issue 57; sisimai/p5-sisimai ' +
      'lib/Sisimai/Rhost/YahooInc.pm ("554 delivery error: dd This user doesn\'t have a yahoo.com account")',
  },
  {
    name: 'Mail.ru',
    mxSuffixes: ['mxs.mail.ru'],
    seen: 'zytzagoo/smtp-validate-email issue 3 (2023: any Mail.ru address is accepted at RCPT, then bounced)',
  },
  {
    name: 'Microsoft 365',
    mxSuffixes: ['mail.protection.outlook.com'],
    seen:
      'learn.microsoft.com, "Use Directory-Based Edge Blocking to reject messages sent to invalid recipients" ' +
      '(a tenant without it, or one relaying a domain on, accepts every recipient)',
  },
];

/** The provider whose MX host this is, when it accepts every recipient; undefined for anyone else. */
export function acceptAllProviderOf(mxHost: string | undefined): AcceptAllProvider | undefined {
  const host = mxHost?.toLowerCase().replace(/\.$/, '');
  if (!host) return undefined;
  return acceptAllProviders.find((provider) =>
    provider.mxSuffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`)),
  );
}
