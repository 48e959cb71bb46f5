import { fuseStep } from './fuse';
import { lexicalStep } from './lexical';
import { postFilterStep } from './post-filter';
import { rerankStep } from './rerank';
import type { Step } from './step';
import { vectorStep } from './vector';

export type { EngineParts, SearchOptions, Step, StepExplanation, StepInput, StepName, StepOutput } from './step';

/** The steps of the built-in pipeline, in the order they run. A new stage is its file and one entry here. */
export const STEPS: readonly Step[] = [lexicalStep, vectorStep, fuseStep, rerankStep, postFilterStep];
