import { describe, expect, it } from "vitest";
import { DataDirLockedError } from "../src/server/db/client";
import { describeError, describeLockedDataDir, localServerUrl, table } from "./output";

describe("describeLockedDataDir: a data folder held by another process", () => {
  const err = new DataDirLockedError("/srv/prite/data", 4242);

  it("names the folder and the process, and the local server on PORT to use instead", () => {
    const saved = process.env.PORT;
    process.env.PORT = "8080";
    try {
      expect(describeLockedDataDir(err, undefined)).toBe(
        "The embedded database in /srv/prite/data is in use by another process (pid 4242), usually a running PRITE Study server.\n" +
          "Use that server instead: `prite login --server http://localhost:8080` once, and later commands go to it; or stop that process first.",
      );
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it("after a login (only --local gets here then), says to drop --local", () => {
    expect(describeLockedDataDir(err, "https://prite.example.org")).toBe(
      "The embedded database in /srv/prite/data is in use by another process (pid 4242), usually a running PRITE Study server.\n" +
        "Drop --local to use your login to https://prite.example.org, or stop that process first.",
    );
  });

  it("is what describeError prints, once (no second hint after the error's own message)", () => {
    const text = describeError(err);
    expect(text).toBe(describeLockedDataDir(err));
    expect(text.match(/--server/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it("PORT defaults to 3000 and must be a port", () => {
    expect(localServerUrl({})).toBe("http://localhost:3000");
    expect(localServerUrl({ PORT: "70000" })).toBe("http://localhost:3000");
    expect(localServerUrl({ PORT: "3001" })).toBe("http://localhost:3001");
  });
});

describe("table", () => {
  it("pads columns to the widest cell", () => {
    expect(
      table(
        [
          { a: "x", bb: 12 },
          { a: "long", bb: "" },
        ],
        ["a", "bb"],
      ),
    ).toBe("a     bb\n----  --\nx     12\nlong");
  });
});
