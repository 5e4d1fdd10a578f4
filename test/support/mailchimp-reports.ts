// The Mailchimp test server's campaigns and their reports, with the rules Sift reads bounces back by, each
// with its source (Mailchimp's Marketing API reference):
// - GET /campaigns: `list_id`, `status` (sent), `since_send_time` ("Restrict the response to campaigns sent
//   after the set time"; this server takes the time itself too, as an inclusive bound), `sort_field=send_time`
//   with `sort_dir` (https://mailchimp.com/developer/marketing/api/campaigns/list-campaigns/).
// - GET /reports/{campaign_id}/sent-to: every recipient with `status` "sent", "hard" or "soft"
//   (https://mailchimp.com/developer/marketing/api/sent-to-reports/list-campaign-recipients/); an unknown
//   campaign 404 "Resource Not Found".
// - Cleaned members are a member status; `since_last_changed` keeps those whose `last_changed` is after it
//   (https://mailchimp.com/developer/marketing/api/list-members/list-members-info/): served by the members
//   route (mailchimp-server.ts).
// Paging by `count` (at most 1000) and `offset`, as every list of the API.

/** A sent campaign: its audience, when it went, and what happened to each recipient. */
export type ChimpCampaign = { list: string; sendTime: string; recipients: Map<string, 'sent' | 'hard' | 'soft'> };

/** The answer for a campaigns or reports path, or undefined for any other. */
export function reportsAnswer(
  campaigns: ReadonlyMap<string, ChimpCampaign>,
  parts: readonly string[],
  url: URL,
): { status: number; body: unknown } | undefined {
  const count = Number(url.searchParams.get('count') ?? 10);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  if (parts.length === 1 && parts[0] === 'campaigns') {
    const list = url.searchParams.get('list_id');
    const since = url.searchParams.get('since_send_time');
    const sent = [...campaigns]
      .filter(
        ([, campaign]) =>
          (!list || campaign.list === list) && (!since || Date.parse(campaign.sendTime) >= Date.parse(since)),
      )
      .sort(([, a], [, b]) => Date.parse(a.sendTime) - Date.parse(b.sendTime));
    if (url.searchParams.get('sort_dir') === 'DESC') sent.reverse();
    return {
      status: 200,
      body: {
        campaigns: sent
          .slice(offset, offset + count)
          .map(([id, campaign]) => ({ id, send_time: campaign.sendTime, status: 'sent' })),
        total_items: sent.length,
      },
    };
  }
  if (parts.length === 3 && parts[0] === 'reports' && parts[2] === 'sent-to') {
    const campaign = campaigns.get(parts[1]!);
    if (!campaign)
      return {
        status: 404,
        body: { title: 'Resource Not Found', status: 404, detail: 'The requested resource could not be found.' },
      };
    const all = [...campaign.recipients];
    return {
      status: 200,
      body: {
        sent_to: all.slice(offset, offset + count).map(([email_address, status]) => ({ email_address, status })),
        total_items: all.length,
      },
    };
  }
  return undefined;
}
