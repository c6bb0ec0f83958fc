import { PRODUCT_TITLE } from "@/core/constants";
import { PageHeader } from "@/web/components/layout/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { AnswerKeyImport } from "./answer-key-import";
import { ParseQuestions } from "./parse-questions";

/** /test: the paste-based Question import in docs/product/screens.md (docs/product/product-decisions.md), titled with the product title. */
export function QuestionImportPage() {
  return (
    <>
      <PageHeader title={PRODUCT_TITLE} description="Question import" />
      <Tabs defaultValue="questions">
        <TabsList aria-label="Question import">
          <TabsTrigger value="questions">Parse Questions</TabsTrigger>
          <TabsTrigger value="answer-key">Process Answer Key</TabsTrigger>
        </TabsList>
        <TabsContent value="questions" forceMount className="data-[state=inactive]:hidden">
          <ParseQuestions />
        </TabsContent>
        <TabsContent value="answer-key" forceMount className="data-[state=inactive]:hidden">
          <AnswerKeyImport />
        </TabsContent>
      </Tabs>
    </>
  );
}
