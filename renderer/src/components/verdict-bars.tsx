// The verdicts as a bar chart, with counts and shares: a module of its own, so the chart library is
// loaded only when a chart is first shown (verdict-chart.tsx loads it lazily).
import { Bar, BarChart, Cell, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatCount, percent } from '../format.ts';

export type VerdictBar = { label: string; count: number; color: string };

export default function VerdictBars({ rows, total }: { rows: VerdictBar[]; total: number }) {
  return (
    <ResponsiveContainer width="100%" height={36 * rows.length + 10}>
      <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 90 }} accessibilityLayer={false}>
        <XAxis type="number" hide />
        <YAxis type="category" dataKey="label" width={96} tickLine={false} axisLine={false} />
        <Bar dataKey="count" isAnimationActive={false} radius={4}>
          {rows.map((row) => (
            <Cell key={row.label} fill={row.color} />
          ))}
          <LabelList
            dataKey="count"
            position="right"
            formatter={(value: unknown) => `${formatCount(Number(value))} (${percent(Number(value), total)})`}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
