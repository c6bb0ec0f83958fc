import { LogOut } from "lucide-react";
import { useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Settings › Account: where this account is signed in, and "Sign out everywhere else" (issue 33). */
export function SessionsCard() {
  const utils = trpc.useUtils();
  const list = trpc.auth.sessions.useQuery();
  const signOutOthers = trpc.auth.signOutOthers.useMutation();
  const { show, banner } = useBanner();
  const others = (list.data ?? []).filter((s) => !s.current).length;

  const run = async () => {
    try {
      await signOutOthers.mutateAsync();
      await utils.auth.sessions.invalidate();
      show("success", "Signed out everywhere else");
    } catch (error) {
      show("error", errorMessage(error, "Failed to sign out the other sessions"));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Active Sessions</CardTitle>
        <CardDescription>The devices signed in to your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {banner}
        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <p className="text-sm text-muted-foreground">
            {errorMessage(list.error, "Failed to load sessions")}
          </p>
        ) : (
          <ul className="flex flex-col divide-y" aria-label="Active sessions">
            {list.data.map((s, i) => (
              <li key={i} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="font-medium">
                  {s.device} {s.current && <Badge variant="info">This device</Badge>}
                </span>
                <span className="text-sm text-muted-foreground">
                  Last used {when(s.lastUsedAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Button
          variant="outline"
          onClick={run}
          busy={signOutOthers.isPending}
          disabled={others === 0}
          className="w-full sm:w-fit"
        >
          {!signOutOthers.isPending && <LogOut aria-hidden="true" />}
          Sign out everywhere else
        </Button>
      </CardContent>
    </Card>
  );
}
