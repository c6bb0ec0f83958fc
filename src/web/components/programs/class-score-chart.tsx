import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { pgyLabel, type ProgramReport } from "./report-parts";

const STROKES = ["#2563eb", "#7c3aed", "#0891b2", "#c2410c", "#be185d", "#15803d"];

/** Mean overall percentile per class and year (recharts; loaded lazily), with the figures as a list too. */
export default function ClassScoreChart({ history }: { history: ProgramReport["scoreHistory"] }) {
  const years = [...new Set(history.flatMap((c) => c.years.map((y) => y.year)))].sort();
  const rows = years.map((year) => {
    const row: Record<string, string | number> = { year };
    for (const c of history) {
      const y = c.years.find((x) => x.year === year);
      if (y) row[c.pgyLevel] = y.meanOverall;
    }
    return row;
  });
  return (
    <figure
      className="w-full"
      data-testid="class-score-chart"
      aria-label="Mean PRITE percentile per class by year"
    >
      <div className="h-64 w-full">
        <ResponsiveContainer>
          <LineChart data={rows} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="year" />
            <YAxis domain={[0, 100]} />
            <Tooltip />
            <Legend />
            {history.map((c, i) => (
              <Line
                key={c.pgyLevel}
                type="monotone"
                dataKey={c.pgyLevel}
                name={pgyLabel(c.pgyLevel)}
                stroke={STROKES[i % STROKES.length]}
                strokeWidth={2}
                connectNulls
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-2 text-sm">
        <ul>
          {history.map((c) => (
            <li key={c.pgyLevel}>
              {pgyLabel(c.pgyLevel)}:{" "}
              {c.years.map((y) => `${y.year} ${y.meanOverall} (${y.residents} sharing)`).join(", ")}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
