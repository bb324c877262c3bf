import 'uplot/dist/uPlot.min.css';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';

/**
 * Bytegate's charts: uPlot (about 22 KB gzip, canvas) over time, hours or UTC days, as bars (one over
 * another, or stacked) or lines. The canvas is for eyes; screen readers and keyboards get the same data
 * as a table, and a tooltip follows the pointer. Loaded lazily by the cards that draw one.
 */

export interface ChartSeries {
  label: string;
  /** A CSS colour with enough contrast on white. */
  color: string;
  /** One value a point; null leaves a gap in a line (a rate with nothing to rate). */
  values: readonly (number | null)[];
  /** Bars (the default) or a line. */
  kind?: 'bar' | 'line';
}

export interface TimeSeriesChartProps {
  /** The start of each point: UTC milliseconds, oldest first. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** Bars stacked on each other (parts of a whole); otherwise each is drawn over the one before. */
  isStacked?: boolean;
  resolution: 'hour' | 'day';
  formatValue: (value: number) => string;
  /** What the chart shows, for its table's caption and screen readers. */
  label: string;
  /** A fixed value range (0 to 100 for a percentage); otherwise from 0 to the largest value. */
  range?: [number, number];
  /** Whole numbers only (counts): the value axis steps by 1, 2, 5, 10, ... */
  isWhole?: boolean;
  height?: number;
}

/** A table longer than this is no help read out (90 days by the hour is 2,160 rows). */
const TABLE_MAX_ROWS = 400;

const AXIS = { stroke: '#4b5563', font: '12px system-ui, sans-serif', ticks: { show: false } };
const GRID = { stroke: '#f3f4f6', width: 1 };

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const hourFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A point's time as the tooltip and the table say it, in UTC. */
export function formatPointTime(ms: number, resolution: 'hour' | 'day'): string {
  return resolution === 'day' ? dayFormat.format(ms) : `${hourFormat.format(ms)} UTC`;
}

/** Each stacked series' tops: the sum of it and every series before it, point by point. */
export function stackedTops(series: readonly (readonly (number | null)[])[]): number[][] {
  const tops: number[][] = [];
  series.forEach((values, index) => {
    tops.push(values.map((value, point) => (value ?? 0) + (index > 0 ? (tops[index - 1]?.[point] ?? 0) : 0)));
  });
  return tops;
}

/** The steps a whole-number axis may take: 1, 2, 5, 10, 20, 50, ... up to a billion. */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, power) =>
  [1, 2, 5].map((base) => base * 10 ** power),
).flat();

/** A point's value as the tooltip and table show it; a dash where there is none. */
const valueText = (value: number | null | undefined, format: (value: number) => string) =>
  value === null || value === undefined ? '–' : format(value);

export default function TimeSeriesChart(props: TimeSeriesChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [tip, setTip] = useState<{ index: number; left: number; top: number } | null>(null);
  const captionId = useId();
  const {
    times,
    series,
    isStacked = false,
    resolution,
    formatValue,
    range,
    isWhole = false,
    height = 224,
  } = props;

  // uPlot draws series in order: stacked bars are drawn as their tops, the tallest first, so each
  // shorter top paints over the part of the taller below it.
  const drawn = useMemo(() => {
    const tops = isStacked
      ? stackedTops(series.map((one) => one.values))
      : series.map((one) => [...one.values]);
    const order = series.map((_, index) => index);
    if (isStacked) {
      order.reverse();
    }
    return order.map((index) => ({ source: series[index] as ChartSeries, values: tops[index] ?? [] }));
  }, [series, isStacked]);

  const data = useMemo<uPlot.AlignedData>(
    () => [times.map((ms) => ms / 1000), ...drawn.map((one) => one.values)],
    [times, drawn],
  );

  // The chart is built once per shape (its series, resolution, range) and fed new data in place; the
  // callers' inline functions and arrays are read through refs and keys, so a re-render does not rebuild it.
  const formatRef = useRef(formatValue);
  formatRef.current = formatValue;
  const dataRef = useRef(data);
  dataRef.current = data;
  const rangeKey = range ? `${range[0]}:${range[1]}` : null;
  const shape = JSON.stringify(
    drawn.map(({ source, values }) => [
      source.label,
      source.color,
      source.kind ?? 'bar',
      values.filter((value) => value !== null).length < 40,
    ]),
  );

  useEffect(() => {
    const element = host.current;
    if (!element) {
      return;
    }
    const step = resolution === 'day' ? 86_400 : 3600;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 100),
      height,
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false }, y: false },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
      padding: [8, 8, 0, 0],
      scales: {
        x: {
          time: true,
          // Half a step either side, so the first and last bars show whole.
          range: (_u, min, max) => [min - step / 2, max + step / 2],
        },
        y: {
          range: rangeKey
            ? () => rangeKey.split(':').map(Number) as [number, number]
            : (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1],
        },
      },
      axes: [
        // uPlot's own time labels (hours with the date under them, days or months as the range asks),
        // in UTC through tzDate.
        { ...AXIS, grid: { show: false }, space: 60, size: 44 },
        {
          ...AXIS,
          grid: GRID,
          // Wide enough for the longest label ('488.3 KB'): about 7 px a character at 12 px, and room.
          size: (_u, values) => Math.max(40, ...(values ?? []).map((value) => value.length * 7 + 16)),
          ...(isWhole ? { incrs: WHOLE_STEPS } : {}),
          values: (_u, splits) => splits.map((value) => formatRef.current(value)),
        },
      ],
      series: [
        {},
        ...(JSON.parse(shape) as Array<[string, string, 'bar' | 'line', boolean]>).map(
          ([label, color, kind, hasFewPoints]): uPlot.Series =>
            kind === 'line'
              ? // Dots where the line has few points (a lone point between gaps draws no line).
                { label, stroke: color, width: 2, points: { show: hasFewPoints, size: 6 } }
              : {
                  label,
                  stroke: color,
                  fill: color,
                  width: 0,
                  paths: uPlot.paths.bars?.({ size: [0.7, 28], radius: 0.15, gap: 1 }),
                  points: { show: false },
                },
        ),
      ],
      hooks: {
        setCursor: [
          (u) => {
            const index = u.cursor.idx;
            setTip(
              index === null || index === undefined
                ? null
                : { index, left: (u.cursor.left ?? 0) + u.over.offsetLeft, top: u.cursor.top ?? 0 },
            );
          },
        ],
      },
    };
    const chart = new uPlot(options, dataRef.current, element);
    plot.current = chart;
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 100), height }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [shape, height, rangeKey, resolution, isWhole]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  const tipTime = tip ? times[tip.index] : undefined;
  return (
    <figure className="relative m-0" aria-labelledby={captionId}>
      <div ref={host} aria-hidden="true" className="w-full" onMouseLeave={() => setTip(null)} />
      {tip && tipTime !== undefined ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute z-10 min-w-36 -translate-x-1/2 -translate-y-full rounded-lg border border-gray-200 bg-white px-3 py-2 text-xs shadow-md"
          style={{
            left: Math.min(Math.max(tip.left, 80), (host.current?.clientWidth ?? 0) - 80),
            top: Math.max(tip.top, 40),
          }}
        >
          <p className="mb-1 font-medium text-gray-900">{formatPointTime(tipTime, resolution)}</p>
          {series.map((one) => (
            <p key={one.label} className="flex items-center justify-between gap-3 text-gray-700">
              <span className="flex items-center gap-1.5">
                <span className="size-2 rounded-sm" style={{ background: one.color }} />
                {one.label}
              </span>
              <span className="font-medium tabular-nums">
                {valueText(one.values[tip.index], formatValue)}
              </span>
            </p>
          ))}
        </div>
      ) : null}
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600">
        <span id={captionId} className="sr-only">
          {props.label}
        </span>
        {series.length > 1
          ? series.map((one) => (
              <span key={one.label} className="flex items-center gap-1.5" aria-hidden="true">
                <span className="size-2.5 rounded-sm" style={{ background: one.color }} />
                {one.label}
              </span>
            ))
          : null}
      </figcaption>
      {times.length > TABLE_MAX_ROWS ? (
        <p className="sr-only">
          {times.length} points: too many to read out; the CSV export holds every one.
        </p>
      ) : (
        // In a box of its own: a table grows to fit its rows whatever size it is given, and would
        // lengthen and widen the page even while visually hidden.
        <div className="sr-only">
          <table>
            <caption>{props.label}</caption>
            <thead>
              <tr>
                <th scope="col">{resolution === 'day' ? 'Day (UTC)' : 'Hour (UTC)'}</th>
                {series.map((one) => (
                  <th key={one.label} scope="col">
                    {one.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((ms, index) => (
                <tr key={ms}>
                  <th scope="row">{formatPointTime(ms, resolution)}</th>
                  {series.map((one) => (
                    <td key={one.label}>{valueText(one.values[index], formatValue)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
