import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
} from "recharts";
import { PERCENTILE_BANDS, PERCENTILE_MAX } from "@/core/constants";
import { SCORE_SUBJECT_LABELS, SCORE_SUBJECTS, type ScoreSubject } from "@/core/stats";
import { BAND_COLORS, bandColor, chartRows, type PriteScore } from "./score-format";

/** Line colours tell the subjects apart; each point is painted in its percentile band's colour. */
const SUBJECT_STROKES: Readonly<Record<ScoreSubject, string>> = {
  overall: "var(--foreground)",
  psychiatry: "#7c3aed",
  neuroscience: "#0891b2",
  soma: "#c2410c",
  growth: "#be185d",
};

function bandDot(props: DotItemDotProps) {
  const { cx, cy, value, index, dataKey } = props;
  const key = `${String(dataKey)}-${index}`;
  if (cx === undefined || cy === undefined || typeof value !== "number") return <g key={key} />;
  return (
    <circle
      key={key}
      cx={cx}
      cy={cy}
      r={5}
      fill={bandColor(value)}
      stroke="var(--card)"
      strokeWidth={2}
      data-band-value={value}
    />
  );
}

const BANDS = [
  { from: PERCENTILE_BANDS.SUCCESS, to: PERCENTILE_MAX, color: BAND_COLORS.success },
  { from: PERCENTILE_BANDS.PRIMARY, to: PERCENTILE_BANDS.SUCCESS, color: BAND_COLORS.primary },
  { from: PERCENTILE_BANDS.WARNING, to: PERCENTILE_BANDS.PRIMARY, color: BAND_COLORS.warning },
  { from: 0, to: PERCENTILE_BANDS.WARNING, color: BAND_COLORS.danger },
];

/** Percentiles by year (recharts; loaded lazily so it never weighs on the first page load). */
export default function ScoreTrendChart({ scores }: { scores: readonly PriteScore[] }) {
  const rows = chartRows(scores);
  const shown = SCORE_SUBJECTS.filter((s) => rows.some((r) => r[s] !== undefined));
  return (
    <figure
      className="w-full"
      aria-label={`Percentile trend by year, ${rows[0]?.year} to ${rows.at(-1)?.year}`}
      data-testid="score-trend-chart"
    >
      <div className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
            {BANDS.map((band) => (
              <ReferenceArea
                key={band.from}
                y1={band.from}
                y2={band.to}
                fill={band.color}
                fillOpacity={0.1}
                stroke="none"
                ifOverflow="hidden"
              />
            ))}
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="year"
              type="number"
              domain={["dataMin", "dataMax"]}
              allowDecimals={false}
              ticks={rows.map((r) => r.year)}
              tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            />
            <YAxis
              domain={[0, PERCENTILE_MAX]}
              ticks={[
                0,
                PERCENTILE_BANDS.WARNING,
                PERCENTILE_BANDS.PRIMARY,
                PERCENTILE_BANDS.SUCCESS,
                PERCENTILE_MAX,
              ]}
              tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            />
            <Tooltip
              formatter={(value, name) => [`${String(value)}%`, name]}
              labelFormatter={(label) => `PRITE ${String(label)}`}
              contentStyle={{
                background: "var(--popover)",
                border: "1px solid var(--border)",
                borderRadius: 6,
                color: "var(--popover-foreground)",
              }}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {shown.map((subject) => (
              <Line
                key={subject}
                type="monotone"
                dataKey={subject}
                name={SCORE_SUBJECT_LABELS[subject]}
                stroke={SUBJECT_STROKES[subject]}
                strokeWidth={subject === "overall" ? 3 : 1.5}
                connectNulls
                isAnimationActive={false}
                dot={bandDot}
                activeDot={{ r: 6 }}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span>Point colours:</span>
        <span style={{ color: BAND_COLORS.success }}>● 80 and above</span>
        <span style={{ color: BAND_COLORS.primary }}>● 50-79</span>
        <span style={{ color: BAND_COLORS.warning }}>● 30-49</span>
        <span style={{ color: BAND_COLORS.danger }}>● below 30</span>
      </figcaption>
    </figure>
  );
}
