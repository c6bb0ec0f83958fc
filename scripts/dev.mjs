#!/usr/bin/env node
// Development: the API with tsx watch on PORT+1 and Vite's dev server (with HMR) proxying to it on PORT.
import { spawn } from "node:child_process";

const port = Number(process.env.PORT ?? 3000);
const api = spawn("npx", ["tsx", "watch", "src/server/main.ts"], {
  stdio: "inherit",
  env: { ...process.env, PORT: String(port + 1), NODE_ENV: "development" },
});
const web = spawn("npx", ["vite", "--port", String(port)], {
  stdio: "inherit",
  env: { ...process.env, API_PORT: String(port + 1) },
});
const stop = () => {
  api.kill("SIGTERM");
  web.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
