// How Bytegate's bar charts look (recharts props), for the overview's traffic and the console's hourly
// requests alike: the same grid, axes, tooltip and bars.

const tick = { fontSize: 12, fill: '#4b5563' };

export const chartMargin = { top: 8, right: 4, bottom: 0, left: 0 };
export const gridProps = { vertical: false, stroke: '#f3f4f6' } as const;
export const xAxisProps = {
  dataKey: 'label',
  tickLine: false,
  axisLine: false,
  interval: 'preserveStartEnd',
  minTickGap: 24,
  tick,
} as const;
export const yAxisProps = {
  tickLine: false,
  axisLine: false,
  width: 44,
  tick,
  allowDecimals: false,
} as const;
export const tooltipProps = {
  cursor: { fill: '#eef2ff' },
  contentStyle: { borderRadius: 8, borderColor: '#e5e7eb', fontSize: 13 },
} as const;
export const barProps = {
  radius: [3, 3, 0, 0] as [number, number, number, number],
  isAnimationActive: false,
};
