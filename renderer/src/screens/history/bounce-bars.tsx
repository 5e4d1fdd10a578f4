// Each verdict's hard-bounce rate as a bar: a module of its own, so the chart library loads only when the
// panel first shows one (what-happened.tsx loads it lazily).
import { Bar, BarChart, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatCount } from '../../format.ts';

type BounceBar = { label: string; rate: number; hard: number };

export default function BounceBars({ rows }: { rows: BounceBar[] }) {
  return (
    <ResponsiveContainer width="100%" height={36 * rows.length + 10}>
      <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 110 }} accessibilityLayer={false}>
        <XAxis type="number" hide domain={[0, (max: number) => Math.max(max, 5)]} />
        <YAxis type="category" dataKey="label" width={96} tickLine={false} axisLine={false} />
        <Bar dataKey="rate" isAnimationActive={false} radius={4} fill="var(--danger)">
          <LabelList
            dataKey="hard"
            position="right"
            formatter={(value: unknown) => `${formatCount(Number(value))} bounced`}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
