import { afterEach, describe, expect, it, vi } from "vitest";
import {
  announceUpdate,
  dismissUpdate,
  isUpdatePromptShown,
  onNewWorkerControlling,
  reloadIntoUpdate,
  resetUpdateStateForTests,
  subscribeToUpdate,
} from "./update-state";

afterEach(() => resetUpdateStateForTests());

describe("the update prompt's state (issue 18)", () => {
  it("shows once a new worker waits, and tells its listeners", () => {
    const listener = vi.fn();
    subscribeToUpdate(listener);
    expect(isUpdatePromptShown()).toBe(false);
    announceUpdate(async () => undefined);
    expect(isUpdatePromptShown()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("Later hides it until the next announcement", () => {
    announceUpdate(async () => undefined);
    dismissUpdate();
    expect(isUpdatePromptShown()).toBe(false);
    announceUpdate(async () => undefined);
    expect(isUpdatePromptShown()).toBe(true);
  });

  it("never reloads a tab whose user did not press Reload, and keeps its prompt", () => {
    const reload = vi.fn();
    announceUpdate(async () => undefined);
    dismissUpdate();
    // Another tab's Reload activated the new worker, which now controls this page too.
    onNewWorkerControlling(reload);
    expect(reload).not.toHaveBeenCalled();
    expect(isUpdatePromptShown()).toBe(false);
  });

  it("Reload asks the waiting worker to take over, and reloads when it does", async () => {
    const reload = vi.fn();
    const apply = vi.fn(async () => {
      onNewWorkerControlling(reload);
    });
    announceUpdate(apply);
    await reloadIntoUpdate(reload, async () => undefined);
    expect(apply).toHaveBeenCalledTimes(1);
    // Once from taking over; the fallback's reload is harmless (the page is already going).
    expect(reload).toHaveBeenCalled();
  });

  it("Reload reloads at once when the new worker already controls the page", async () => {
    const reload = vi.fn();
    const apply = vi.fn(async () => undefined);
    announceUpdate(apply);
    onNewWorkerControlling(reload);
    await reloadIntoUpdate(reload, () => new Promise(() => undefined));
    expect(apply).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
