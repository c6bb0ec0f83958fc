import { WifiOff } from "lucide-react";
import { useOnline } from "@/web/lib/use-online";
import { offlineBannerText } from "./offline-text";

/**
 * The strip under the header while the device is offline (issue 18). `waiting` is the number of
 * answers given offline and not yet on the server; the offline queue passes it in.
 */
export function OfflineBanner({ waiting }: { waiting: number }) {
  const online = useOnline();
  return (
    // The live region stays in the page so screen readers hear the change to offline and back.
    <div role="status" aria-live="polite">
      {!online && (
        <p className="flex items-center justify-center gap-2 border-b border-warning/30 bg-warning-soft px-4 py-1.5 text-sm text-warning-soft-foreground">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          {offlineBannerText(waiting)}
        </p>
      )}
    </div>
  );
}
