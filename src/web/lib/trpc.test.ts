import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import { browserTimeZone, errorMessage } from "./trpc";

/** A failure as the tRPC client builds it from the server's error response. */
function answered(message: string, code: string, httpStatus: number) {
  return TRPCClientError.from({ error: { message, code: -32000, data: { code, httpStatus } } });
}

describe("errorMessage", () => {
  it("shows the server's own words for the errors it explains", () => {
    expect(errorMessage(answered("Question not found", "NOT_FOUND", 404), "Failed")).toBe(
      "Question not found",
    );
    expect(
      errorMessage(
        answered("The service is temporarily unavailable.", "SERVICE_UNAVAILABLE", 503),
        "Search failed",
      ),
    ).toBe("The service is temporarily unavailable.");
  });

  it("shows the screen's default for a 500 and for transport failures (decision 076)", () => {
    expect(
      errorMessage(
        answered("Internal server error", "INTERNAL_SERVER_ERROR", 500),
        "Failed to update question",
      ),
    ).toBe("Failed to update question");
    expect(errorMessage(TRPCClientError.from(new Error("Failed to fetch")), "Search failed")).toBe(
      "Search failed",
    );
    expect(errorMessage(new Error("boom"), "Search failed")).toBe("Search failed");
  });
});

describe("browserTimeZone", () => {
  it("looks the zone up at most once a minute, and again after", () => {
    const lookup = vi.spyOn(Intl, "DateTimeFormat");
    try {
      const zone = browserTimeZone(1_000_000);
      expect(zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
      lookup.mockClear();
      expect(browserTimeZone(1_030_000)).toBe(zone);
      expect(browserTimeZone(1_059_999)).toBe(zone);
      expect(lookup).not.toHaveBeenCalled();
      expect(browserTimeZone(1_060_000)).toBe(zone);
      expect(lookup).toHaveBeenCalledTimes(1);
    } finally {
      lookup.mockRestore();
    }
  });

  it("asks Temporal where the engine has it, and never builds an Intl.DateTimeFormat then", () => {
    const lookup = vi.spyOn(Intl, "DateTimeFormat");
    vi.stubGlobal("Temporal", { Now: { timeZoneId: () => "America/Chicago" } });
    try {
      expect(browserTimeZone(5_000_000)).toBe("America/Chicago");
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      lookup.mockRestore();
    }
  });
});
