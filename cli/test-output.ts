import { vi } from "vitest";

/**
 * Captures what an in-process CLI run writes to stdout and stderr, and the exit code it sets; restores
 * both streams and `process.exitCode` afterwards (a test's exit code must not leak into the runner's).
 */
export async function captureRun(
  run: () => Promise<void>,
): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    stderr += String(chunk);
    return true;
  });
  const saved = process.exitCode;
  process.exitCode = undefined;
  try {
    await run();
    return { stdout, stderr, code: Number(process.exitCode ?? 0) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = saved;
  }
}
