import type { Command } from "commander";
import { count, desc, eq, gte } from "drizzle-orm";
import { reviews, users } from "../../src/server/db/schema";
import { MIN_REVIEWS_TO_OPTIMIZE } from "../../src/server/features/study/fsrs-optimizer";
import {
  optimizeForUser,
  type OptimizeJson,
} from "../../src/server/features/study/scheduler.service";
import { action } from "../command";
import { table } from "../output";
import { requireLocal } from "../runtime";

export interface UserOptimization {
  username: string;
  reviewCount: number;
  default: { logLoss: number; rmse: number };
  /** Null when the optimizer kept the defaults: nothing was fitted or stored (issue 31). */
  fitted: { logLoss: number; rmse: number } | null;
  /** The fitted parameters; null when the defaults were kept. */
  parameters: number[] | null;
  /** Why the defaults were kept, else null. */
  keptDefaults: string | null;
}

export function toUserOptimization(username: string, r: OptimizeJson): UserOptimization {
  return {
    username,
    reviewCount: r.reviewCount,
    default: r.defaults,
    fitted: r.keptDefaults ? null : r.after,
    parameters: r.keptDefaults ? null : r.parameters,
    keptDefaults: r.keptDefaults,
  };
}

export function formatOptimizations(list: UserOptimization[]): string {
  if (list.length === 0) return `No account has ${MIN_REVIEWS_TO_OPTIMIZE} reviews yet.`;
  const kept = list.filter((u) => u.keptDefaults);
  const fitted = list.filter((u) => !u.keptDefaults);
  const lines = kept.map((u) =>
    list.length === 1 ? u.keptDefaults! : `${u.username}: ${u.keptDefaults!.replace(/^K/, "k")}`,
  );
  if (fitted.length > 0) lines.unshift(fittedTable(fitted));
  return lines.join("\n");
}

function fittedTable(list: UserOptimization[]): string {
  return table(
    list.map((u) => ({
      username: u.username,
      reviews: u.reviewCount,
      "log loss (default)": u.default.logLoss.toFixed(4),
      "log loss (fitted)": u.fitted!.logLoss.toFixed(4),
      "RMSE (default)": u.default.rmse.toFixed(4),
      "RMSE (fitted)": u.fitted!.rmse.toFixed(4),
    })),
    [
      "username",
      "reviews",
      "log loss (default)",
      "log loss (fitted)",
      "RMSE (default)",
      "RMSE (fitted)",
    ],
  );
}

export function registerFsrsCommands(program: Command): void {
  const fsrs = program.command("fsrs").description("FSRS scheduling: fit parameters to reviews");
  fsrs
    .command("optimize")
    .description(
      `Fit FSRS parameters to the review log of --user (or of every account with ${MIN_REVIEWS_TO_OPTIMIZE}+ reviews with --all, local only) and store them`,
    )
    .option("--all", "every account with enough reviews (local database only)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite fsrs optimize --user alice
  $ prite fsrs optimize --all --json`,
    )
    .action(
      action(
        async (ctx, opts: { all?: boolean }) => {
          if (!opts.all) {
            const r = (await ctx.session.api.study.optimize.mutate()) as OptimizeJson;
            const list = [toUserOptimization(ctx.session.actingAs ?? "", r)];
            ctx.out(formatOptimizations(list), list);
            return;
          }
          const db = ctx.session.handle!.db;
          const rows = await db
            .select({ id: users.id, username: users.username, n: count(reviews.id) })
            .from(users)
            .innerJoin(reviews, eq(reviews.userId, users.id))
            .groupBy(users.id, users.username)
            .having(({ n }) => gte(n, MIN_REVIEWS_TO_OPTIMIZE))
            .orderBy(desc(count(reviews.id)));
          const list: UserOptimization[] = [];
          for (const row of rows) {
            list.push(toUserOptimization(row.username, await optimizeForUser(db, row.id)));
          }
          ctx.out(formatOptimizations(list), list);
        },
        {
          validate: ([opts], globals) => {
            if (opts.all) requireLocal(globals, "fsrs optimize --all");
          },
        },
      ),
    );
}
