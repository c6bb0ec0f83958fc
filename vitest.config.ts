import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "cli/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["./src/server/test/global-setup.ts"],
    setupFiles: ["./src/server/test/setup-each-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
