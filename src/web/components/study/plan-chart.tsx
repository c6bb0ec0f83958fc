import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export interface PlanChartDay {
  date: string;
  reviews: number;
  new: number;
}

/** Reviews and new questions per day (recharts; loaded lazily, off the first page load). */
export default function PlanChart({ days }: { days: readonly PlanChartDay[] }) {
  return (
    <figure
      className="h-64 w-full"
      aria-label={`Reviews and new questions per day, ${days[0]?.date} to ${days.at(-1)?.date}`}
      data-testid="plan-chart"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={[...days]} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          <Bar dataKey="reviews" name="Reviews" stackId="day" fill="#0891b2" />
          <Bar dataKey="new" name="New" stackId="day" fill="#7c3aed" />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
