/**
 * Graceful shutdown with a bound on every step. After PostgreSQL restarted under load, SIGTERM twice left
 * the process running for good (bench/pg-outage.ts): closing the HTTP server or the postgres.js pool
 * waited on something that never settled (postgres.js has open reports of such hangs, e.g.
 * porsager/postgres#1097). Each step now gets a budget; one that overruns is logged and the next still runs.
 */
export interface ShutdownStep {
  name: string;
  close: () => Promise<void>;
  /** How long the step may take before shutdown moves on. */
  budgetMs: number;
}

export interface ShutdownLog {
  error(obj: object, msg: string): void;
}

/** Runs the steps in order; 0 when every one finished in time, 1 otherwise (the process exit code). */
export async function closeInSteps(steps: ShutdownStep[], log: ShutdownLog): Promise<0 | 1> {
  let code: 0 | 1 = 0;
  for (const step of steps) {
    let timer: NodeJS.Timeout | undefined;
    const overran = new Promise<"overran">((resolve) => {
      timer = setTimeout(() => resolve("overran"), step.budgetMs);
    });
    try {
      const outcome = await Promise.race([step.close().then(() => "closed" as const), overran]);
      if (outcome === "overran") {
        log.error(
          { step: step.name, budgetMs: step.budgetMs },
          `${step.name} did not close in time; shutting down without it`,
        );
        code = 1;
      }
    } catch (err) {
      log.error({ err, step: step.name }, `closing ${step.name} failed`);
      code = 1;
    } finally {
      clearTimeout(timer);
    }
  }
  return code;
}
