import type { ComponentProps } from "react";
import { cn } from "@/web/lib/utils";
import { fieldClasses } from "./input";

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      className={cn(fieldClasses, "min-h-24 py-2 leading-relaxed read-only:bg-muted", className)}
      {...props}
    />
  );
}
