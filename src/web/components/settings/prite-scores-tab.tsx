import { ScoreHistory } from "@/web/components/scores/score-history";

export function PriteScoresTab() {
  return <ScoreHistory />;
}
