import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** The bars of the traffic chart (recharts), loaded on its own so the overview does not wait for it. */
export default function TrafficBars({
  data,
  unit,
}: {
  data: Array<{ label: string; value: number; requests: number }>;
  unit: string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 0 }} accessibilityLayer>
        <CartesianGrid vertical={false} stroke="#f3f4f6" />
        <XAxis
          dataKey="label"
          tickLine={false}
          axisLine={false}
          interval="preserveStartEnd"
          minTickGap={24}
          tick={{ fontSize: 12, fill: '#6b7280' }}
        />
        <YAxis
          tickLine={false}
          axisLine={false}
          width={40}
          tick={{ fontSize: 12, fill: '#6b7280' }}
          allowDecimals={false}
        />
        <Tooltip
          cursor={{ fill: '#eef2ff' }}
          formatter={(value) => [`${value} ${unit}`, 'Traffic']}
          contentStyle={{ borderRadius: 8, borderColor: '#e5e7eb', fontSize: 13 }}
        />
        <Bar
          dataKey="value"
          name="Traffic"
          fill="#4f46e5"
          radius={[3, 3, 0, 0]}
          maxBarSize={24}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
