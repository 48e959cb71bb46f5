// Starts a real opensearch for the scenarios of scenarios.ts (skipped, saying why, where Java or Maven is missing).
import { engineSuite } from './scenarios';

engineSuite('opensearch');
