import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { barProps, chartMargin, gridProps, tooltipProps, xAxisProps, yAxisProps } from './bar-chart-style.ts';

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
      <BarChart data={data} margin={chartMargin} accessibilityLayer>
        <CartesianGrid {...gridProps} />
        <XAxis {...xAxisProps} />
        <YAxis {...yAxisProps} />
        <Tooltip {...tooltipProps} formatter={(value) => [`${value} ${unit}`, 'Traffic']} />
        <Bar dataKey="value" name="Traffic" fill="#4f46e5" maxBarSize={24} {...barProps} />
      </BarChart>
    </ResponsiveContainer>
  );
}
