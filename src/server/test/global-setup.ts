import { ensurePgliteGolden, ensurePostgresTemplate } from "./golden";

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await ensurePostgresTemplate(url);
  else await ensurePgliteGolden();
}
