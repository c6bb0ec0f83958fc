import type { Command } from "commander";
import type { Api } from "../runtime";
import { action } from "../command";
import { table } from "../output";

type Plan = Awaited<ReturnType<Api["study"]["plan"]["query"]>>;

export interface StudyPlanOptions {
  examDate?: string;
  newPerDay?: string;
}

/** A usage error (exit 2) in the product's words. */
function usage(message: string): Error {
  return Object.assign(new Error(message), { exitCode: 2 });
}

function validatePlanOptions(o: StudyPlanOptions): void {
  if (o.examDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.examDate)) {
    throw usage("--exam-date must be a date (YYYY-MM-DD).");
  }
  if (o.newPerDay !== undefined && !/^\d+$/.test(o.newPerDay)) {
    throw usage("--new-per-day must be a whole number from 0 to 500.");
  }
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

export function formatPlan(plan: Plan): string {
  const lines: string[] = [];
  const s = plan.settings;
  lines.push(
    s.examDate
      ? `Exam: ${s.examDate}, target recall ${percent(s.examTargetRetention)}.`
      : "No exam date set (prite study plan --exam-date YYYY-MM-DD).",
  );
  lines.push(`New questions: ${plan.pace.message}`);
  if (plan.switchToFsrs) lines.push(plan.switchToFsrs);
  lines.push(
    `Bank: ${plan.bank.total} questions, ${percent(plan.shareSeen)} seen` +
      (plan.shareSeenByExam === null ? "." : `, ${percent(plan.shareSeenByExam)} by the exam.`),
  );
  lines.push("", "Next days:");
  lines.push(
    table(
      plan.days.slice(0, 14).map((d) => ({ date: d.date, reviews: d.reviews, new: d.new })),
      ["date", "reviews", "new"],
    ),
  );
  const cats = Object.entries(plan.recallByCategory);
  if (s.examDate && cats.length > 0) {
    lines.push("", "Predicted recall on the exam day:");
    lines.push(
      table(
        cats.map(([category, r]) => ({
          category,
          questions: r.total,
          "seen by then": r.seen,
          recall: percent(r.recall),
          [`at ${percent(s.examTargetRetention)}+`]: r.atTarget,
        })),
        [
          "category",
          "questions",
          "seen by then",
          "recall",
          `at ${percent(s.examTargetRetention)}+`,
        ],
      ),
    );
  }
  return lines.join("\n");
}

/** `prite study plan`: sets what it is given (study.setPlan), then prints the plan (study.plan). */
export async function studyPlanCommand(api: Api, o: StudyPlanOptions) {
  const changes = {
    ...(o.examDate !== undefined && { examDate: o.examDate }),
    ...(o.newPerDay !== undefined && { newPerDay: Number(o.newPerDay) }),
  };
  const plan =
    Object.keys(changes).length > 0
      ? await api.study.setPlan.mutate(changes)
      : await api.study.plan.query();
  return {
    human: formatPlan(plan),
    json: {
      days: plan.days,
      recallByCategory: plan.recallByCategory,
      pace: plan.pace,
      bank: plan.bank,
      shareSeen: plan.shareSeen,
      shareSeenByExam: plan.shareSeenByExam,
      settings: plan.settings,
      switchToFsrs: plan.switchToFsrs,
      assumptions: plan.assumptions,
    },
  };
}

export function registerStudyCommands(program: Command): void {
  const study = program.command("study").description("Studying toward the exam: the plan");
  study
    .command("plan")
    .description(
      "Set the exam date and new questions per day (when given), then show the plan: the new-question pace, reviews per day and the predicted recall per category on the exam day",
    )
    .option("--exam-date <date>", "your next PRITE (YYYY-MM-DD, in your time zone)")
    .option("--new-per-day <n>", "new questions a day (0-500)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite study plan --exam-date 2027-02-20
  $ prite study plan --new-per-day 30 --json`,
    )
    .action(
      action(
        async (ctx, o: StudyPlanOptions) => {
          const { human, json } = await studyPlanCommand(ctx.session.api, o);
          ctx.out(human, json);
        },
        { validate: ([o]) => validatePlanOptions(o) },
      ),
    );
}
