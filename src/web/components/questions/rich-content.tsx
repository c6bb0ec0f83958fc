import { useMemo } from "react";
import { toDisplayHtml } from "@/core/media";
import { cn } from "@/web/lib/utils";

interface RichContentProps {
  /** A flashcard side as stored: sanitized HTML whose images are `<img src="<sha256>">`. */
  html: string;
  className?: string;
  "data-testid"?: string;
}

/**
 * A flashcard side (issue 17): the stored HTML sanitized once more here (the core sanitizer, the same
 * rules as on import and save: nothing that runs or loads from elsewhere), with each image pointed at
 * `/api/media/<sha256>`, which serves it to those who can see the question. Lists, tables, emphasis
 * and sub/superscripts keep their look; images fit the width.
 */
export function RichContent({ html, className, ...rest }: RichContentProps) {
  const safe = useMemo(() => toDisplayHtml(html), [html]);
  return (
    <div
      data-testid={rest["data-testid"]}
      className={cn(
        "leading-relaxed break-words",
        "[&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5",
        "[&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
        "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-2 [&_code]:font-mono",
        "[&_table]:my-2 [&_table]:block [&_table]:overflow-x-auto [&_table]:border-collapse",
        "[&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:font-semibold",
        "[&_h1]:text-lg [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold",
        "[&_img]:my-2 [&_img]:inline-block [&_img]:h-auto [&_img]:max-h-[60vh] [&_img]:max-w-full [&_img]:rounded-md",
        className,
      )}
      // toDisplayHtml sanitizes with the core allow-list (src/core/import/anki/html.ts, decision 180).
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
