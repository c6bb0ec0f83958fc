/**
 * A small original demo bank written for PRITE Study (not taken from any exam or other source),
 * so a new installation has something to browse and study.
 */
export interface DemoQuestion {
  text: string;
  options: Record<"A" | "B" | "C" | "D" | "E", string>;
  correctAnswer: "A" | "B" | "C" | "D" | "E";
  category: string;
  explanation: string;
  part: "1" | "2";
  number: number;
}

export const DEMO_BANK: DemoQuestion[] = [
  {
    number: 1,
    part: "1",
    category: "Psychopharmacology",
    text: "A 34-year-old man started on lithium for bipolar I disorder develops coarse tremor, vomiting and confusion after beginning a new medication for hypertension. Which medication most likely raised his lithium level?",
    options: {
      A: "Amlodipine",
      B: "Hydrochlorothiazide",
      C: "Metoprolol",
      D: "Hydralazine",
      E: "Clonidine",
    },
    correctAnswer: "B",
    explanation:
      "Thiazide diuretics reduce renal lithium clearance by increasing proximal tubular sodium (and lithium) reabsorption, often raising levels by a quarter or more.\n\nCalcium channel blockers, beta-blockers, hydralazine and clonidine do not meaningfully change lithium clearance.",
  },
  {
    number: 2,
    part: "1",
    category: "Neuroscience",
    text: "Degeneration of which structure is most characteristic of Huntington disease?",
    options: {
      A: "Substantia nigra pars compacta",
      B: "Caudate nucleus",
      C: "Nucleus basalis of Meynert",
      D: "Cerebellar vermis",
      E: "Mammillary bodies",
    },
    correctAnswer: "B",
    explanation:
      "Huntington disease causes early loss of medium spiny neurons in the striatum, most visibly the caudate, giving the 'boxcar' ventricles on imaging. Nigral loss is Parkinson disease; the nucleus basalis is affected in Alzheimer disease; mammillary bodies in Wernicke-Korsakoff syndrome.",
  },
  {
    number: 3,
    part: "1",
    category: "Schizophrenia Spectrum",
    text: "A patient treated with clozapine has an absolute neutrophil count of 900/µL on routine monitoring and no fever. Under current monitoring guidance for the general population, what is the most appropriate next step?",
    options: {
      A: "Continue clozapine with no change in monitoring",
      B: "Interrupt clozapine and monitor the count daily",
      C: "Switch immediately to olanzapine long-acting injection",
      D: "Start filgrastim and continue clozapine",
      E: "Reduce the clozapine dose by half",
    },
    correctAnswer: "B",
    explanation:
      "An ANC below 1000/µL is severe neutropenia in the general population: clozapine is interrupted, the ANC is checked daily until it recovers, and a hematology consult is considered. Rechallenge may be considered later if benefits outweigh risks.",
  },
  {
    number: 4,
    part: "1",
    category: "Child Psychiatry",
    text: "Which finding is required for a diagnosis of ADHD in DSM-5-TR?",
    options: {
      A: "Onset of symptoms before age 7",
      B: "Several symptoms present before age 12",
      C: "Impairment in at least three settings",
      D: "A positive continuous performance test",
      E: "A family history of ADHD",
    },
    correctAnswer: "B",
    explanation:
      "DSM-5 moved the age criterion from 7 to 12 years: several inattentive or hyperactive-impulsive symptoms must have been present before age 12, in two or more settings. No test result is required.",
  },
  {
    number: 5,
    part: "1",
    category: "Substance Use Disorders",
    text: "A man in alcohol withdrawal with cirrhosis and elevated bilirubin needs a benzodiazepine. Which is preferred because it does not depend on hepatic oxidation?",
    options: {
      A: "Chlordiazepoxide",
      B: "Diazepam",
      C: "Lorazepam",
      D: "Clonazepam",
      E: "Alprazolam",
    },
    correctAnswer: "C",
    explanation:
      "Lorazepam, oxazepam and temazepam are metabolised by glucuronidation alone, which is relatively preserved in liver disease, and have no active metabolites. Chlordiazepoxide and diazepam undergo oxidative metabolism and accumulate.",
  },
  {
    number: 6,
    part: "1",
    category: "Neurocognitive Disorders",
    text: "Visual hallucinations, fluctuating attention, parkinsonism and severe sensitivity to antipsychotics suggest which diagnosis?",
    options: {
      A: "Frontotemporal dementia",
      B: "Vascular dementia",
      C: "Dementia with Lewy bodies",
      D: "Creutzfeldt-Jakob disease",
      E: "Normal pressure hydrocephalus",
    },
    correctAnswer: "C",
    explanation:
      "Core features of dementia with Lewy bodies are fluctuating cognition, recurrent well-formed visual hallucinations, REM sleep behaviour disorder and parkinsonism. Severe neuroleptic sensitivity is a supportive feature.",
  },
  {
    number: 7,
    part: "2",
    category: "Ethics",
    text: "A capable adult patient refuses a recommended blood transfusion for religious reasons after a clear discussion of the risks. What should the team do?",
    options: {
      A: "Seek an emergency court order",
      B: "Transfuse because the condition is life-threatening",
      C: "Respect the refusal and document the discussion",
      D: "Ask the family to consent instead",
      E: "Request a psychiatric hold",
    },
    correctAnswer: "C",
    explanation:
      "An adult with decision-making capacity may refuse any treatment, including life-sustaining treatment. The team documents the capacity assessment and the informed refusal and continues to offer acceptable alternatives.",
  },
  {
    number: 8,
    part: "2",
    category: "Sleep-Wake Disorders",
    text: "Which treatment is first-line for chronic insomnia disorder in adults?",
    options: {
      A: "Zolpidem nightly",
      B: "Cognitive behavioural therapy for insomnia",
      C: "Diphenhydramine",
      D: "Quetiapine at low dose",
      E: "Melatonin 10 mg",
    },
    correctAnswer: "B",
    explanation:
      "CBT-I (sleep restriction, stimulus control, cognitive work and sleep hygiene) is recommended as first-line treatment for chronic insomnia; its benefits last beyond the end of treatment, unlike hypnotics.",
  },
  {
    number: 9,
    part: "2",
    category: "Psychotherapy",
    text: "Which defence mechanism best describes a patient who, angry at her supervisor, criticises her younger brother at dinner?",
    options: {
      A: "Projection",
      B: "Displacement",
      C: "Reaction formation",
      D: "Sublimation",
      E: "Isolation of affect",
    },
    correctAnswer: "B",
    explanation:
      "Displacement redirects a feeling from its source to a safer target. Projection attributes one's own feelings to another person; reaction formation turns a feeling into its opposite; sublimation channels it into an acceptable activity.",
  },
  {
    number: 10,
    part: "2",
    category: "Depressive Disorders",
    text: "A patient on phenelzine is prescribed a cough medicine and develops hyperthermia, clonus and agitation. Which ingredient is most likely responsible?",
    options: {
      A: "Guaifenesin",
      B: "Dextromethorphan",
      C: "Benzonatate",
      D: "Menthol",
      E: "Acetaminophen",
    },
    correctAnswer: "B",
    explanation:
      "Dextromethorphan inhibits serotonin reuptake; combined with a monoamine oxidase inhibitor it can cause serotonin syndrome, marked by hyperthermia, autonomic instability, clonus and agitation.",
  },
  {
    number: 11,
    part: "2",
    category: "Research Methods",
    text: "A screening test is applied in a population where the disease becomes more common. Which property of the test increases?",
    options: {
      A: "Sensitivity",
      B: "Specificity",
      C: "Positive predictive value",
      D: "Negative predictive value",
      E: "Likelihood ratio",
    },
    correctAnswer: "C",
    explanation:
      "Sensitivity, specificity and likelihood ratios are properties of the test. Predictive values depend on prevalence: as prevalence rises, positive predictive value rises and negative predictive value falls.",
  },
  {
    number: 12,
    part: "2",
    category: "Consultation-Liaison",
    text: "An older inpatient becomes acutely inattentive and disoriented at night, with a fluctuating course over two days. What is the first priority?",
    options: {
      A: "Start a cholinesterase inhibitor",
      B: "Search for and treat the underlying medical cause",
      C: "Give a benzodiazepine at bedtime",
      D: "Order neuropsychological testing",
      E: "Transfer to a psychiatric unit",
    },
    correctAnswer: "B",
    explanation:
      "Acute, fluctuating inattention is delirium until proven otherwise. Management starts with finding and treating causes (infection, drugs, metabolic disturbance, retention, pain) and non-drug measures; benzodiazepines tend to worsen delirium outside alcohol withdrawal.",
  },
];
