import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  barProps,
  chartMargin,
  gridProps,
  tooltipProps,
  xAxisProps,
  yAxisProps,
} from '../../dashboard/bar-chart-style.ts';

/** Requests and errors per hour (recharts), loaded on its own so the rest of the view does not wait. */
export default function HourlyBars({
  data,
}: {
  data: Array<{ label: string; requests: number; errors: number }>;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={chartMargin} accessibilityLayer>
        <CartesianGrid {...gridProps} />
        <XAxis {...xAxisProps} />
        <YAxis {...yAxisProps} />
        <Tooltip {...tooltipProps} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="requests" name="Requests" fill="#4f46e5" maxBarSize={18} {...barProps} />
        <Bar dataKey="errors" name="Errors" fill="#dc2626" maxBarSize={18} {...barProps} />
      </BarChart>
    </ResponsiveContainer>
  );
}
