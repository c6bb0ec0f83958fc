import type { Command } from "commander";
import { DEMO_BANK } from "../../src/server/features/seed/demo-bank";
import { seedSynthetic } from "../../src/server/features/seed/synthetic";
import { action } from "../command";
import { CliError } from "../output";

interface SeedOptions {
  demo?: boolean;
  synthetic?: boolean;
  users: string;
  questions: string;
  reviews: string;
  public: string;
  year?: string;
}

const positiveInt = (name: string, value: string, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new CliError(`--${name} must be a whole number from 0 to ${max}`, 2);
  return n;
};

export function registerSeedCommands(program: Command): void {
  program
    .command("seed")
    .description("Fill the database: a small demo bank, or synthetic data for benchmarks")
    .option("--demo", "add the demo bank (12 original questions, public) as the acting user")
    .option("--synthetic", "generate synthetic users, questions and reviews (local mode only)")
    .option("--users <n>", "synthetic users", "1000")
    .option("--questions <n>", "synthetic questions", "50000")
    .option("--reviews <n>", "synthetic reviews, spread over the last 90 days", "500000")
    .option("--public <share>", "share of synthetic questions that are public (0-1)", "0.2")
    .option("--year <year>", "PRITE year for the demo bank (default: this year)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite seed --demo --user chief
  $ prite seed --synthetic --users 1000 --questions 50000 --reviews 500000`,
    )
    .action(
      action(async (ctx, opts: SeedOptions) => {
        if (!opts.demo === !opts.synthetic)
          throw new CliError("Choose one of --demo or --synthetic.", 2);
        if (opts.demo) {
          const year = opts.year ? positiveInt("year", opts.year, 2100) : new Date().getFullYear();
          const result = await ctx.session.api.imports.commit.mutate({
            isPublic: true,
            items: DEMO_BANK.map((q) => ({ question: { ...q, year }, action: "create" as const })),
          });
          ctx.out(
            `Added ${result.imported} demo questions (public) as ${ctx.session.actingAs ?? "you"}.`,
            {
              imported: result.imported,
            },
          );
          return;
        }
        if (ctx.session.mode !== "local" || !ctx.session.handle) {
          throw new CliError(
            "seed --synthetic writes to the database directly: run it in local mode (no --server).",
            2,
          );
        }
        const share = Number(opts.public);
        if (!(share >= 0 && share <= 1)) throw new CliError("--public must be between 0 and 1", 2);
        const started = Date.now();
        const result = await seedSynthetic(ctx.session.handle.db, {
          users: positiveInt("users", opts.users, 100_000),
          questions: positiveInt("questions", opts.questions, 2_000_000),
          reviews: positiveInt("reviews", opts.reviews, 20_000_000),
          publicShare: share,
          now: new Date(),
        });
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        ctx.out(
          `Created ${result.users} users (${result.prefix}_1…, password '${result.password}'), ${result.questions} questions and ${result.reviews} reviews in ${seconds} s.`,
          { ...result, seconds: Number(seconds) },
        );
      }),
    );
}
