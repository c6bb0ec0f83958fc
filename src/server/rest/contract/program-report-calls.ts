import type { RestCall } from "./call";
import { any, arr, dict, nullable, num, obj, str } from "./shape";

const CategoryMean = obj({ mean: nullable(num), members: num });

/** A resident's row of the program dashboard: figures only, never an answer (decision 361). */
const ResidentFigures = obj({
  userId: str,
  username: str,
  displayName: str,
  pgyLevel: str,
  joinedAt: nullable(str),
  lastActive: nullable(str),
  answered7: num,
  answered30: num,
  answered: num,
  accuracy: nullable(num),
  dueBacklog: num,
  assignmentsDone: num,
  assignmentsTotal: num,
  flags: arr(any),
  cells: dict(obj({ answered: num, accuracy: nullable(num) })),
});

export const ProgramReport = obj({
  program: obj({
    id: str,
    name: str,
    institution: str,
    inactiveDays: num,
    accuracyFlag: num,
  }),
  generatedAt: str,
  categories: arr(str),
  residents: arr(ResidentFigures),
  classMeans: arr(obj({ pgyLevel: str, residents: num, means: dict(CategoryMean) })),
  programMeans: dict(CategoryMean),
  serverMeans: dict(CategoryMean),
  scoreHistory: arr(
    obj({ pgyLevel: str, years: arr(obj({ year: str, meanOverall: num, residents: num })) }),
  ),
});

// Issue 32 item 6: the program dashboard (docs/product/program-dashboard.md).
export const PROGRAM_REPORT_CALLS: readonly RestCall[] = [
  {
    method: "GET",
    path: "/api/programs/:id/report",
    spec: false,
    access: "user",
    request:
      "— (the program's directors only). `Accept: text/csv` answers one table as CSV: `query: table=roster|heatmap` (roster by default)",
    status: 200,
    response: ProgramReport,
  },
];
