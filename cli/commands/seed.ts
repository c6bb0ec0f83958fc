import type { Command } from "commander";
import { DEMO_BANK } from "../../src/server/features/seed/demo-bank";
import { seedSynthetic, type SyntheticOptions } from "../../src/server/features/seed/synthetic";
import { seedSyntheticPrograms } from "../../src/server/features/seed/synthetic-programs";
import { action } from "../command";
import { parseCount, parseYear, usage } from "../options";
import { requireLocal, type Api } from "../runtime";

interface SeedOptions {
  demo?: boolean;
  synthetic?: boolean;
  users: string;
  questions: string;
  reviews: string;
  public: string;
  year?: string;
  programs?: string;
  residentsPerProgram?: string;
}

/** --programs and --residents-per-program (issue 32 item 7): null without --programs. */
export function programSeedOptions(
  opts: SeedOptions,
  users: number,
): { programs: number; residentsPerProgram: number } | null {
  if (opts.programs === undefined) {
    if (opts.residentsPerProgram !== undefined)
      throw usage("--residents-per-program applies with --programs only.");
    return null;
  }
  const programs = parseCount("programs", opts.programs, 10_000);
  const residentsPerProgram = parseCount(
    "residents-per-program",
    opts.residentsPerProgram ?? "25",
    1_000,
  );
  if (programs * residentsPerProgram > users) {
    throw usage(
      `--programs ${programs} of ${residentsPerProgram} need ${programs * residentsPerProgram} users: raise --users.`,
    );
  }
  return { programs, residentsPerProgram };
}

export interface DemoSeedResult {
  /** Demo questions added by this run. */
  imported: number;
  /** Demo questions skipped because the acting user already sees them (an earlier run, anyone's). */
  alreadyPresent: number;
  year: number;
}

/**
 * `prite seed --demo`: the demo bank through the same procedures as an import — the duplicate check,
 * then one commit of public questions as the acting user. Demo questions the user already sees (their
 * own from an earlier run, or another user's public copy) are skipped, so running it twice adds nothing.
 */
export async function seedDemo(api: Api, { year }: { year: number }): Promise<DemoSeedResult> {
  const questions = DEMO_BANK.map((q) => ({ ...q, year }));
  const { results } = await api.imports.checkDuplicates.mutate({ questions });
  const present = new Set(results.filter((r) => r.isDuplicate).map((r) => r.index));
  if (present.size === questions.length) return { imported: 0, alreadyPresent: present.size, year };
  const result = await api.imports.commit.mutate({
    isPublic: true,
    items: questions.map((question, i) =>
      present.has(i)
        ? { question, action: "skip" as const, hadDuplicate: true }
        : { question, action: "create" as const },
    ),
  });
  return { imported: result.imported, alreadyPresent: present.size, year };
}

export function formatDemoSeed(result: DemoSeedResult, actingAs: string | null): string {
  const who = actingAs ?? "you";
  if (result.imported === 0)
    return `The ${result.alreadyPresent} demo questions are already there: nothing added.`;
  const skipped =
    result.alreadyPresent > 0 ? ` (${result.alreadyPresent} were already there: skipped)` : "";
  return `Added ${result.imported} demo questions (public, ${result.year}) as ${who}${skipped}.`;
}

/** The --synthetic flags, checked before the database is opened. */
export function syntheticOptions(opts: SeedOptions, now: Date): SyntheticOptions {
  const share = /^(?:\d+|\d*\.\d+)$/.test(opts.public.trim()) ? Number(opts.public) : Number.NaN;
  if (!(share >= 0 && share <= 1)) throw usage("--public must be a share from 0 to 1, e.g. 0.2");
  return {
    users: parseCount("users", opts.users, 100_000),
    questions: parseCount("questions", opts.questions, 2_000_000),
    reviews: parseCount("reviews", opts.reviews, 20_000_000),
    publicShare: share,
    now,
  };
}

/** Which seed to run, with its flags checked; usage errors (exit 2) before anything is opened. */
export function checkSeedFlags(opts: SeedOptions, now = new Date()) {
  if (!opts.demo === !opts.synthetic) throw usage("Choose one of --demo or --synthetic.");
  if (opts.demo) {
    return {
      kind: "demo" as const,
      year: opts.year === undefined ? now.getFullYear() : parseYear(opts.year, now),
    };
  }
  if (opts.year !== undefined) throw usage("--year applies to --demo only.");
  const options = syntheticOptions(opts, now);
  return {
    kind: "synthetic" as const,
    options,
    programs: programSeedOptions(opts, options.users),
  };
}

export function registerSeedCommands(program: Command): void {
  program
    .command("seed")
    .description("Fill the database: a small demo bank, or synthetic data for benchmarks")
    .option(
      "--demo",
      "add the demo bank (12 original questions, public) as the acting user; skips those already there",
    )
    .option("--synthetic", "generate synthetic users, questions and reviews (local mode only)")
    .option("--users <n>", "synthetic users", "1000")
    .option("--questions <n>", "synthetic questions", "50000")
    .option("--reviews <n>", "synthetic reviews, spread over the last 90 days", "500000")
    .option("--public <share>", "share of synthetic questions that are public (0-1)", "0.2")
    .option("--year <year>", "PRITE year for the demo bank (default: this year)")
    .option("--programs <n>", "with --synthetic: residency programs over the synthetic users")
    .option("--residents-per-program <n>", "members of each synthetic program (default 25)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite seed --demo --user chief
  $ prite seed --synthetic --users 1000 --questions 50000 --reviews 500000
  $ prite seed --synthetic --users 6750 --programs 270 --residents-per-program 25`,
    )
    .action(
      action(
        async (ctx, opts: SeedOptions) => {
          const seed = checkSeedFlags(opts);
          if (seed.kind === "demo") {
            const result = await seedDemo(ctx.session.api, { year: seed.year });
            ctx.out(formatDemoSeed(result, ctx.session.actingAs), result);
            return;
          }
          const started = Date.now();
          const result = await seedSynthetic(ctx.session.handle!.db, {
            ...seed.options,
            now: new Date(),
          });
          const programs = seed.programs
            ? await seedSyntheticPrograms(ctx.session.handle!.db, {
                prefix: result.prefix,
                ...seed.programs,
                now: new Date(),
              })
            : null;
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const inPrograms = programs
            ? ` and ${programs.programs} programs (${programs.members} members, ${programs.questions} program questions)`
            : "";
          ctx.out(
            `Created ${result.users} users (${result.prefix}_1…, password '${result.password}'), ${result.questions} questions and ${result.reviews} reviews${inPrograms} in ${seconds} s.`,
            { ...result, programs, seconds: Number(seconds) },
          );
        },
        {
          validate: ([opts], globals) => {
            const seed = checkSeedFlags(opts);
            if (seed.kind === "synthetic") requireLocal(globals, "seed --synthetic");
          },
        },
      ),
    );
}
