import { RefreshCw } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Button } from "@/web/components/ui/button";
import {
  dismissUpdate,
  isUpdatePromptShown,
  reloadIntoUpdate,
  subscribeToUpdate,
} from "./update-state";

/**
 * 'A new version is available' with a Reload button (issue 18). It sits in the page's flow above
 * everything, so it never covers an answer button, and it never takes focus: a resident
 * mid-question finishes the question and reloads when they choose. Nothing reloads by itself.
 */
export function UpdatePrompt() {
  const shown = useSyncExternalStore(subscribeToUpdate, isUpdatePromptShown, () => false);
  const [reloading, setReloading] = useState(false);
  if (!shown) return null;
  return (
    <div
      role="status"
      aria-label="Update"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-b border-info/30 bg-info-soft px-4 py-1.5 text-sm text-info-soft-foreground"
    >
      <RefreshCw className="size-4 shrink-0" aria-hidden="true" />
      <span>A new version is available.</span>
      <span className="flex gap-1">
        <Button
          size="sm"
          busy={reloading}
          onClick={() => {
            setReloading(true);
            void reloadIntoUpdate(() => window.location.reload());
          }}
        >
          Reload
        </Button>
        <Button size="sm" variant="ghost" onClick={dismissUpdate}>
          Later
        </Button>
      </span>
    </div>
  );
}
