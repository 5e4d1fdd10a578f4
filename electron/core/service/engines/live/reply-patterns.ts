// What the words of a mail server's reply say, as data: each pattern maps a reply to a reason a person can
// act on, with where such replies were seen. Read in order, first match wins: a reply that blames the
// sender is read as that before anything else, because it says nothing about the mailbox whatever its
// code. To add one: put it in its group with its source, and add the real reply to the corpus
// (test/fixtures/smtp-replies/corpus.json) with the reason it should give.

/** Why a server answered as it did, in terms a person can act on. */
export type ReplyReason =
  | 'mailbox_not_found'
  | 'mailbox_disabled'
  | 'mailbox_full'
  | 'sender_blocklisted'
  | 'sender_reputation'
  | 'sender_reverse_dns'
  | 'sender_helo'
  | 'sender_address'
  | 'relay_denied'
  | 'rate_limited'
  | 'greylisted'
  | 'policy'
  | 'server_error';

export type ReplyPattern = { reason: ReplyReason; words: RegExp; seen: string };

const sisimai = (file: string) => `sisimai/p5-sisimai lib/Sisimai/${file}`;
const reacher = 'reacherhq/check-if-email-exists core/src/smtp/parser.rs';

/** What a mailbox sentence is about: the mailbox, its user or account, the recipient, the address. */
const mailboxSubject =
  '(local |virtual |e-?mail |mail |destination )?(user(name)?|mail ?box|mail drop|account|recipient|addressee|address|alias|person)';
/** The words a server puts between: "the user you are trying to reach does not exist". */
const fewWords = '[^.;!?\\n]{0,32}?\\s';
const missingStates =
  "(unknown|not (be )?found|not known|not recogni[sz]ed|does ?n[o']?t exists?|do not exist|not exists?|nonexistent|non-existent|inexistent|invalid|not valid|no longer (valid|on (this )?server)|not a member of|not active|unavailable|illegal)\\b";
const missingBefore = '(no such|unknown|invalid|nonexistent|non-existent|inexistent|illegal)';
const closedStates = '(disabled|deactivated|inactive|suspended|closed|locked|expired)\\b';
/** The same in the table's other languages (French, German, Italian, Spanish) and Polish. */
const missingElsewhere =
  '(utilisateur|destinataire|adresse) (inconnue?|inexistante?|invalide)|(benutzer|empf(ä|ae)nger|adressat|postfach) (\\S+ ){0,2}(unbekannt|existiert nicht|nicht gefunden)|(destinatario|indirizzo|utente) (errato|sconosciuto|inesistente)|destin\\. sconosciuto|(usuario|destinatario|direcci(ó|o)n) (\\S+ ){0,2}(desconocido|inexistente|no existe)|nie istnieje|nie ma takiego konta';
const closedElsewhere =
  'bo(i|î)te aux lettres d(é|e)sactiv(é|e)e|(postfach|mailbox) (\\S+ ){0,1}deaktiviert|mailbox disatt?ivata|estado: inactivo|casilla ha expirado|konto jest zablokowane|nieaktywne|bloccato per inutilizzo';
const grammarSeen =
  'cfortune/PHP-Bounce-Handler bounce_responses.php (its 5.1.1 and 5.2.1 phrasings, in English, Italian, Polish, Spanish, French, German); issue 60\'s sets ("the local user does not exist", "recipient nonexistent", "account closed due to inactivity", "user is not a member of this domain", "address not active at this host")';

export const replyPatterns: readonly ReplyPattern[] = [
  // The sender's reverse DNS and HELO name: before the blocklists, as Google's and Postfix's PTR replies
  // also say "blocked" or "rate limited".
  {
    reason: 'sender_reverse_dns',
    words:
      /reverse (dns|hostname|lookup)|\bptr\b|cannot find your hostname|ip name lookup failed|rdns|unresolvable relay host|possibly forged/i,
    seen: `${sisimai('Reason/RequirePTR.pm')}; Postfix reject_unknown_client_hostname (postconf(5)); https://support.google.com/mail/answer/81126#ip-practices`,
  },
  {
    reason: 'sender_helo',
    words: /\b(e?helo|ehlo)\b.*(reject|invalid|denied|not allowed|bad|forged|required)|bad helo|helo command rejected/i,
    seen: `Postfix reject_invalid_helo_hostname / reject_unknown_helo_hostname (postconf(5)); Microsoft 5.7.506 (${sisimai('Rhost/Microsoft.pm')})`,
  },
  // The sending address: a blocklist (DNS or the server's own), a banned IP, a location denied.
  // A DNS blocklist named as such: before reputation, as "blocked using Barracuda Reputation" is a list.
  {
    reason: 'sender_blocklisted',
    words: /blocked using|black ?list|block ?list|\brbl\b|(?<!not )listed (at|on|in)\b|(?<!not )is listed/i,
    seen: `${sisimai('Reason/Blocked.pm')}; Postfix reject_rbl_client default reply (postconf(5) default_rbl_reply); Exim dnslists ACL (spec, chapter 42)`,
  },
  {
    reason: 'sender_reputation',
    words:
      /reputation|\bsbrs\b|senderbase|unusual rate of (unsolicited )?mail|user complaints|suspicious activity|spam (source|sender)|sending spam|too many spams|\[(ts0[1-4]|tss0[1-9])\]|too many (invalid|unknown|bad) (recipients|addresses|users)|mail too many invalid/i,
    // "550 Too many invalid recipients" punishes the sender's earlier misses: before the mailbox words.
    seen: `${sisimai('Reason/BadReputation.pm')}; ${sisimai('Rhost/Google.pm')}; ${sisimai('Rhost/YahooInc.pm')}; ${reacher}; ${sisimai('Rhost/GoDaddy.pm')} (IB212, "mail too many invalid recipients"); zone-eu/zone-mta config/bounces.txt ("550 Too many invalid recipients")`,
  },
  // The sending address refused another way: the server's own list, a banned IP, a location denied.
  {
    reason: 'sender_blocklisted',
    words:
      /spamhaus|spamcop|barracuda|uceprotect|\bpsbl\b|abusix|\bsorbs\b|\bdnsbl|banned sending ip|banned sender|on our block|blocked - see|refused - see|administratively denied|from your location|client host (\[[^\]]*\] )?(rejected|blocked)|\bclient host\b.*\b(access denied|blocked)|\bip address\b.*\b(blocked|denied|rejected|banned)|ip you'?re using|not accepted from (this|your) ip|\bip \S+ is blocked|(connections?|mail) (not accepted|refused|will not be accepted) from|not accepting (connections|mail) from|dynamic ips?\b|host network not allowed|junkmail rejected|open proxy|your access .*(has been )?rejected|ip not in (whitelist|allowlist)/i,
    seen: `${sisimai('Reason/Blocked.pm')}; ${reacher} (is_err_ip_blacklisted); https://support.google.com/mail/?p=NotAuthorizedError; Microsoft 5.7.606-649, 5.7.708 (${sisimai('Rhost/Microsoft.pm')}); Google Workspace "421 4.7.0 IP not in whitelist for RCPT domain" (${sisimai('Rhost/Google.pm')})`,
  },
  // Sending itself turned off, or the sending account or domain at fault: about the sender, whatever mailbox
  // word stands beside it ("Sending has been disabled for this account" is the sender's account).
  {
    reason: 'sender_address',
    words:
      /\b(sending|outbound|outgoing)( (mail|email|messages?))? (is |has been |was )?(disabled|suspended|blocked|restricted|not (allowed|permitted))|\b(disabled|suspended|blocked|restricted) (for|from) (sending|outbound|outgoing)|\byour (e-?mail )?account (is |has been |was )?(disabled|suspended|blocked|locked|restricted)|\bsender (is )?unknown|\bunknown sender|\bunauthori[sz]ed sender|\bsender (is )?not (authori[sz]ed|allowed|permitted)|\byour domain (has no|does not have|lacks|is not|doesn'?t)|\b(no|missing) (mx|a|dns|mx or a) records? (found )?for (your|the sender'?s?) domain|\bsender'?s? domain (has no|does not resolve|doesn'?t resolve|not found|dns)/i,
    seen: `${sisimai('Reason/SecurityError.pm')} (sending account suspended); ${sisimai('Reason/Rejected.pm')} ("sender unknown", "unauthorized sender"); Postfix reject_unknown_sender_domain ("Sender address rejected: Domain not found", postconf(5)); issue 60's fourth set (sending disabled for the sending account; the sender's domain's DNS)`,
  },
  {
    reason: 'sender_address',
    words:
      /sender (address )?(rejected|refused|denied|domain)|(sender|from) domain (not found|does not exist|must resolve)|bad sender|sender verify failed|\bspf\b|\bdkim\b|\bdmarc\b|unauthenticated (email|sender)|mail from .* (rejected|refused)|return path|envelope sender|invalid sender|emetteur invalide|domain of sender address|unresolvable .*from domain|sender verify|5\.1\.[78]\b/i,
    seen: `Postfix reject_unknown_sender_domain / reject_unverified_sender (postconf(5)); Exim "sender verify failed" (spec, chapter 42); ${sisimai('Rhost/Google.pm')} (SPF, DMARC); RFC 3463 X.1.7, X.1.8`,
  },
  // The server's own trouble, before the mailbox words ("insufficient system storage" is not a full mailbox).
  {
    reason: 'server_error',
    words:
      /insufficient system (storage|resources)|local error in processing|queue file write error|configuration problem|temporary (local )?problem/i,
    seen: 'RFC 5321 §4.2.3 (451, 452); Postfix cleanup/queue errors; Exim "Temporary local problem"; qmail "qq temporary problem"',
  },
  // The mailbox itself.
  {
    reason: 'mailbox_full',
    words:
      /over ?quota|quota exceeded|exceed(ed|s|ing)? (its |their |the )?(mailbox |storage |disk )?(quota|storage|size limit)|mailbox (is )?full|full mailbox|out of storage|insufficient (disk|system)? ?(space|storage)|not enough (storage )?space|(user|mailbox|recipient) has too many messages|mailfolder is full|boite du destinataire pleine/i,
    seen: `${sisimai('Reason/MailboxFull.pm')}; ${reacher} (is_full_inbox); ${sisimai('Rhost/Google.pm')} (OverQuotaTemp); RFC 3463 X.2.2`,
  },
  {
    reason: 'mailbox_disabled',
    words:
      /disabled|deactivated|inactive|suspended|discontinued|\bterminated\b|temporar(il)?y locked|account (is )?locked|mailbox (is )?frozen|archived recipient|no longer (active|accepts mail)|boite du destinataire archivee|(recipient'?s? account|this mailbox|recipient'?s? mailbox) (has been |is )?blocked|compte du destinataire est bloque/i,
    seen: `${sisimai('Reason/Suspend.pm')}; ${reacher} (is_disabled_account); https://support.google.com/mail/?p=DisabledUser; ${sisimai('Rhost/FrancePTT.pm')} (LPN007_426, "The recipient account is blocked"); ActiveCampaign/smtp-field-manual data/codes/550.json ("This mailbox has been blocked due to inactivity")`,
  },
  {
    reason: 'mailbox_not_found',
    words:
      /user(name)? (is )?unknown|unknown (user|recipient|mailbox|local part|address)|no such (user|mailbox|recipient|person|address|account)|(user|recipient|mailbox|address|account|email account|email address|email) (does ?n[o']?t|did not|not) exists?|dosn't exist|(user|recipient|mailbox|address) not found|(recipient|mailbox|address) (is )?(invalid|unavailable|unknown)|invalid (recipient|mailbox|address|email address|user)|not a valid (mailbox|recipient|user)|no (mailbox|account) (here|by that name|found)|doesn'?t have an? .*account|have an account|could not be found|no one at this address|not (a )?(known|local) (user|address)|address error|recipient not ok|unrouteable|not handled by this system|utilisateur inconnu|destinataire inconnu|unbekannt|nessun utente|no existe|\bbad address\b|mailbox unavail|domain not found|5\.4\.1 ([<[][^>\]]*[>\]]:? )?recipient address rejected: access denied|invalid-recipient|not in (the )?recipient list|address is marked as invalid|addressee unknown|mailbox name not allowed|user not local/i,
    seen: `${sisimai('Reason/UserUnknown.pm')}; ${reacher} (is_invalid); Postfix's local/virtual/relay recipient table replies (LOCAL_RECIPIENT_README); RFC 3463 X.1.1; RFC 5321 §4.2.2 (551 "User not local", 553 "mailbox name not allowed"); Microsoft Learn, Directory-Based Edge Blocking (550 5.4.1 … Access denied); ActiveCampaign/smtp-field-manual data/codes/550.json and 554.json (Proofpoint "marked as invalid", Trend Micro "Invalid-Recipient", ZeroSpam "Not in recipient list")`,
  },
  // Mailbox words by their grammar, for the phrasings the sentences above lack: a subject (user, mailbox,
  // account, recipient, address) and a state (unknown, not found, does not exist, invalid, closed, locked, …)
  // in either order with a few words between, in the languages the table has. After the sender's words, so
  // "sender unknown" or "your account is disabled" never reads as a mailbox.
  {
    reason: 'mailbox_disabled',
    words: new RegExp(
      `\\b${mailboxSubject}\\b${fewWords}(is |was |has been |are |have been |got )?${closedStates}|\\b${closedStates} (\\S+ ){0,2}${mailboxSubject}\\b|not currently being accepted for this mailbox|${closedElsewhere}`,
      'i',
    ),
    seen: grammarSeen,
  },
  {
    reason: 'mailbox_not_found',
    words: new RegExp(
      `\\b${mailboxSubject}\\b${fewWords}(is |was |has been |are )?${missingStates}|\\b${missingBefore} (\\S+ ){0,2}${mailboxSubject}\\b|\\bno (mail ?box|mailbox|account|user|one|such mail drop)\\b(\\s+\\S+){0,4}?\\s+(available|here|with that|by that name|found|defined)\\b|handle mail for (that|this) user|(unable to|could not|cannot|can't) find (the )?(alias |recipient |user |mailbox )|bad destination mailbox|not found in (the )?ldap|${missingElsewhere}`,
      'i',
    ),
    seen: grammarSeen,
  },
  // The server itself, or its limits.
  {
    reason: 'relay_denied',
    words:
      /relay(ing)? (access )?(denied|not permitted|prohibited)|not permitted to relay|unable to relay|no relaying|not an open relay|(we don'?t|does not) handle mail for|in my list of allowed rcpthosts|not allowed to relay|relay not allowed/i,
    seen: `${sisimai('Reason/NoRelaying.pm')}; Postfix reject_unauth_destination ("Relay access denied", postconf(5)); qmail rcpthosts`,
  },
  {
    reason: 'greylisted',
    words:
      /gr[ae]y-?list|try again later|try later|please retry|temporarily (deferred|rejected)|come back later|deferred|not yet authori[sz]ed/i,
    seen: 'postgrey (greylist_text default); https://www.rfc-editor.org/rfc/rfc6647 (greylisting); Exim greylist ACLs',
  },
  {
    reason: 'rate_limited',
    words:
      /too many (recipients|connections|messages|errors|sessions|concurrent)|rate limit|rate-limit|throttl|slow down|try again slower|exceeded the max|connection limit|sending rate|receiving mail (too quickly|at a rate)|too many recent messages/i,
    seen: `${sisimai('Reason/TooManyConn.pm')}; ${sisimai('Reason/Speeding.pm')}; ${sisimai('Rhost/Google.pm')} (450/550 X.2.1 "receiving mail at a rate", not a closed mailbox); Postfix smtpd_client_recipient_rate_limit ("too many recipients from", anvil); RFC 5321 §4.5.3.1.10 (452 too many recipients)`,
  },
  {
    reason: 'policy',
    words:
      /administrative prohibition|policy|access denied|not authori[sz]ed|prohibited|forbidden|rejected by (recipient|the recipient)|service unavailable|no smtp service|not accepted|refused|envelope blocked|\bblocked\b/i,
    seen: 'Exim "Administrative prohibition" (the default for an ACL deny, spec chapter 42); Postfix check_*_access REJECT ("Access denied"); RFC 3463 X.7.1',
  },
];

/**
 * A recipient the server takes only in a transaction of its own (Outlook.com's tenants in another region,
 * Google's per-domain policy size, MailChannels' per-recipient policies): ask it again in a new
 * conversation. Neither a rate reply nor a refusal.
 */
export const askAloneWords: Omit<ReplyPattern, 'reason'> = {
  words:
    /recipients belong to multiple regions|in a separate transaction|recipient policy mismatch|multiple destination domains per transaction/i,
  seen: `Outlook.com "452 4.5.3 Recipients belong to multiple regions ATTR38" (a Postfix log, https://pastebin.com/aW9rxeVy); ${sisimai('Rhost/Google.pm')} (452 4.5.3 "try this recipient in a separate transaction", 451 4.3.0); https://support.mailchannels.com/hc/en-us/articles/360059960912 (452 4.5.3 Recipient policy mismatch)`,
};
