import { GraduationCap } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent } from "@/web/components/ui/card";

interface AuthLayoutProps {
  /** Under the product title: the sign-in subtitle or the register heading. */
  intro: ReactNode;
  children: ReactNode;
  footer: ReactNode;
}

/** The signed-out frame: the product title, one card, and a way to the other form. */
export function AuthLayout({ intro, children, footer }: AuthLayoutProps) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 pt-[max(2rem,env(safe-area-inset-top))] pb-[max(2rem,env(safe-area-inset-bottom))]">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-sm">
            <GraduationCap className="size-7" aria-hidden="true" />
          </span>
          <h1 className="text-3xl font-semibold tracking-tight">PRITE Study</h1>
          {intro}
        </div>
        <Card>
          <CardContent>{children}</CardContent>
        </Card>
        <div className="mt-5 text-center text-sm text-muted-foreground">{footer}</div>
      </div>
    </main>
  );
}
