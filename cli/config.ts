import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface CliConfig {
  server?: string;
  token?: string;
  username?: string;
}

export function configPath(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "prite", "config.json");
}

export function readConfig(): CliConfig {
  try {
    return JSON.parse(fs.readFileSync(configPath(), "utf8")) as CliConfig;
  } catch {
    return {};
  }
}

/** The token is a credential: the file is created 0600 in a 0700 folder. */
export function writeConfig(config: CliConfig): void {
  const file = configPath();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2), { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

export function clearConfig(): void {
  fs.rmSync(configPath(), { force: true });
}
