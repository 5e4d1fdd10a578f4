import { useEffect, useState } from 'react';
import { extraStatuses, type ReadChoice, type SegmentView } from '../../../../electron/common/connector-schemas.ts';
import { formatCount } from '../../format.ts';
import { connectionsActions } from '../../stores/connections-store.ts';

/** Mailchimp's statuses read only on request, as a person knows them. */
const statusWords: Record<(typeof extraStatuses)[number], string> = {
  pending: 'Pending members too (signed up, not yet confirmed)',
  transactional: 'Transactional members too (they get only receipts and other transactional email)',
};

/** The boxes and the segment picker of a read choice (Mailchimp's), the segments read from the tool. */
export function ReadChoiceFields(props: {
  name: string;
  audience: string;
  choice: ReadChoice;
  onChange: (choice: ReadChoice, segment: SegmentView | undefined) => void;
}) {
  const { choice } = props;
  const [segments, setSegments] = useState<SegmentView[] | undefined>();
  useEffect(() => {
    let current = true;
    void connectionsActions.segments(props.name, props.audience).then((found) => current && setSegments(found));
    return () => {
      current = false;
    };
  }, [props.name, props.audience]);
  const segmentOf = (id: string | null) => segments?.find((each) => each.id === id);
  return (
    <>
      {extraStatuses.map((status) => (
        <label key={status} className="connections__check">
          <input
            type="checkbox"
            checked={choice.include.includes(status)}
            onChange={(event) =>
              props.onChange(
                {
                  ...choice,
                  include: event.target.checked
                    ? [...choice.include, status]
                    : choice.include.filter((each) => each !== status),
                },
                segmentOf(choice.segment),
              )
            }
          />
          {statusWords[status]}
        </label>
      ))}
      <label className="form-field">
        <span>Only the members of</span>
        <select
          value={choice.segment ?? ''}
          disabled={segments === undefined}
          onChange={(event) => {
            const segment = event.target.value || null;
            props.onChange({ ...choice, segment }, segmentOf(segment));
          }}
        >
          <option value="">{segments === undefined ? 'Reading its segments and tags…' : 'The whole list'}</option>
          {segments?.map((each) => (
            <option key={each.id} value={each.id}>
              {each.name} ({each.kind}, {formatCount(each.size)})
            </option>
          ))}
        </select>
      </label>
      <span className="note">Unsubscribed, cleaned and archived members are never read.</span>
    </>
  );
}
