/** A dependency-free SVG chart (line or bars) with an accessible data table fallback. */

/** One point of a series. */
export interface ChartPoint {
  readonly label: string;
  readonly value: number;
}

/** Props of a chart. */
export interface ChartProps {
  readonly title: string;
  readonly points: readonly ChartPoint[];
  readonly kind?: 'line' | 'bars';
  readonly format?: (value: number) => string;
}

const WIDTH = 600;
const HEIGHT = 160;
const PAD = 28;

/** Draws `points`; the numbers are also in a visually hidden table for screen readers. */
export function Chart({ title, points, kind = 'line', format = String }: ChartProps) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const step = points.length > 1 ? (WIDTH - 2 * PAD) / (points.length - 1) : 0;
  const x = (i: number) => PAD + i * step;
  const y = (v: number) => HEIGHT - PAD - (v / max) * (HEIGHT - 2 * PAD);
  const barWidth = Math.max(2, Math.min(40, (WIDTH - 2 * PAD) / Math.max(1, points.length) - 4));
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${title}: ${points.length} points, peak ${format(max)}`}
      >
        <line x1={PAD} y1={HEIGHT - PAD} x2={WIDTH - PAD} y2={HEIGHT - PAD} className="axis" />
        <text x={2} y={PAD} className="tick">
          {format(max)}
        </text>
        <text x={2} y={HEIGHT - PAD} className="tick">
          0
        </text>
        {kind === 'line' ? (
          <polyline className="series" fill="none" points={points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')} />
        ) : (
          points.map((p, i) => (
            <rect
              key={p.label}
              className="bar"
              x={PAD + (i * (WIDTH - 2 * PAD)) / Math.max(1, points.length) + 2}
              y={y(p.value)}
              width={barWidth}
              height={HEIGHT - PAD - y(p.value)}
            />
          ))
        )}
        {points.length > 0 && (
          <>
            <text x={PAD} y={HEIGHT - 8} className="tick">
              {points[0]?.label}
            </text>
            <text x={WIDTH - PAD} y={HEIGHT - 8} className="tick" textAnchor="end">
              {points[points.length - 1]?.label}
            </text>
          </>
        )}
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.label}>
              <th scope="row">{p.label}</th>
              <td>{format(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
