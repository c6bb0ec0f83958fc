import { Tabs as TabsPrimitive } from "radix-ui";
import { useEffect, useRef, type ComponentProps } from "react";
import { cn } from "@/web/lib/utils";

export const Tabs = TabsPrimitive.Root;

/**
 * Scrolls sideways on narrow phones rather than squeezing five labels into illegibility, and keeps
 * the selected tab in view (a link such as ?tab=account would otherwise open it off-screen).
 */
export function TabsList({
  className,
  ref: forwardedRef,
  ...props
}: ComponentProps<typeof TabsPrimitive.List>) {
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const list = ref.current;
    if (!list || list.scrollWidth <= list.clientWidth) return;
    const active = list.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!active) return;
    // Horizontal only: scrollIntoView would also move the page. The list is the offset parent.
    const left = active.offsetLeft;
    if (left < list.scrollLeft || left + active.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - active.offsetWidth) / 2;
    }
  });
  return (
    <TabsPrimitive.List
      ref={(node) => {
        ref.current = node;
        if (typeof forwardedRef === "function") forwardedRef(node);
        else if (forwardedRef) forwardedRef.current = node;
      }}
      className={cn(
        "relative flex w-full items-stretch gap-1 overflow-x-auto rounded-lg bg-muted p-1 text-muted-foreground",
        "[scrollbar-width:none] [&::-webkit-scrollbar]:hidden",
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "inline-flex min-h-10 flex-1 shrink-0 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap",
        "transition-colors outline-none hover:text-foreground",
        "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-muted",
        "data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm",
        "disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4",
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn(
        "mt-4 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring",
        className,
      )}
      {...props}
    />
  );
}
