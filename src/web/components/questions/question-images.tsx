import { isMediaHash, mediaUrl } from "@/core/media/url";
import { cn } from "@/web/lib/utils";

interface QuestionImagesProps {
  /** The question's `images` (SHA-256 keys), in the order they are shown. */
  images: readonly string[];
  className?: string;
}

/**
 * A multiple-choice question's images (issue 17), below its stem, in order. Each opens full size in a
 * new tab; `/api/media/<sha256>` serves it to those who can see the question.
 */
export function QuestionImages({ images, className }: QuestionImagesProps) {
  const shown = images.filter(isMediaHash);
  if (shown.length === 0) return null;
  return (
    <div className={cn("flex flex-wrap gap-2", className)} data-testid="question-images">
      {shown.map((sha256, i) => (
        <a
          key={sha256}
          href={mediaUrl(sha256)}
          target="_blank"
          rel="noopener noreferrer"
          className="block max-w-full rounded-md border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <img
            src={mediaUrl(sha256)}
            alt={
              shown.length === 1
                ? "Image for this question"
                : `Image ${i + 1} of ${shown.length} for this question`
            }
            loading="lazy"
            className="h-auto max-h-[60vh] max-w-full rounded-md"
          />
        </a>
      ))}
    </div>
  );
}
