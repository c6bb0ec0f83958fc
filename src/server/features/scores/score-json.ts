import type { PriteScoreRow } from "../../db/schema";

/** The PRITE score record in docs/product/data.md as every surface returns it. */
export interface PriteScoreJson {
  _id: string;
  year: string;
  overallPercentile: number;
  psychiatryPercentile: number | null;
  neurosciencePercentile: number | null;
  somaPercentile: number | null;
  growthPercentile: number | null;
  sections: { name: string; percentile: number }[];
  notes: string;
  createdAt: string;
  updatedAt: string;
}

export function toPriteScoreJson(row: PriteScoreRow): PriteScoreJson {
  return {
    _id: row.id,
    year: row.year,
    overallPercentile: row.overallPercentile,
    psychiatryPercentile: row.psychiatryPercentile,
    neurosciencePercentile: row.neurosciencePercentile,
    somaPercentile: row.somaPercentile,
    growthPercentile: row.growthPercentile,
    sections: row.sections,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
