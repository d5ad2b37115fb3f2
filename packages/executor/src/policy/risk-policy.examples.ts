// Type-checked examples shown in the TSDoc of `risk-policy.ts` (scripts/docs/examples.mjs).
import { RiskPolicy, type Tool } from '@mtpx/executor';

export function riskPolicyExample(readFile: Tool<never>) {
  //#region RiskPolicy
  const policy = new RiskPolicy({
    defaults: { write: 'ask' },
    tools: { 'file.*': 'deny', 'file.read_file': 'allow' },
  });
  policy.decide(readFile); // 'allow' for file.read_file
  //#endregion RiskPolicy
  return policy;
}
