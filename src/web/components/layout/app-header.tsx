import { Link } from "@tanstack/react-router";
import { GraduationCap, LogOut } from "lucide-react";
import { Button } from "@/web/components/ui/button";

interface AppHeaderProps {
  username: string;
  onLogOut: () => void;
  loggingOut: boolean;
}

export function AppHeader({ username, onLogOut, loggingOut }: AppHeaderProps) {
  return (
    <header className="sticky top-0 z-40 border-b bg-card/95 pt-[env(safe-area-inset-top)] backdrop-blur supports-[backdrop-filter]:bg-card/80">
      <div className="mx-auto flex h-14 max-w-3xl items-center gap-2 px-4">
        <Link
          to="/"
          className="-ml-2 flex min-h-11 items-center gap-2 rounded-md px-2 text-lg font-semibold tracking-tight text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <GraduationCap className="size-6 text-primary" aria-hidden="true" />
          PRITE Study
        </Link>
        <Link
          to="/settings"
          search={{ tab: "profile" }}
          className="ml-auto flex min-h-11 min-w-0 items-center rounded-md px-2 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          data-testid="header-username"
        >
          <span className="sr-only">Signed in as </span>
          <span className="truncate">{username}</span>
        </Link>
        <Button
          variant="ghost"
          size="icon"
          onClick={onLogOut}
          busy={loggingOut}
          aria-label="Log Out"
          title="Log Out"
          className="-mr-2"
        >
          {!loggingOut && <LogOut className="size-5" aria-hidden="true" />}
        </Button>
      </div>
    </header>
  );
}
