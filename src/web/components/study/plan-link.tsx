import { Link } from "@tanstack/react-router";

/** Study's way to the exam plan and forecast (issue 34). */
export function PlanLink() {
  return (
    <Link to="/study/plan" className="text-sm underline">
      Plan and forecast
    </Link>
  );
}
