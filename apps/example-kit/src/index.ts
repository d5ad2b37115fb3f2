export { formatMs, formatSpan, visibleLength, wrapLine } from '@mtpx/inspector/internal';
export { CliError } from './cli-error';
export { COMMON_FLAGS, colorFlag, httpUrlFlag, parseFlags } from './cli-flags';
export { closestFlag, unknownFlagMessage } from './flag-suggestion';
export { LineReader } from './line-reader';
export {
  createModelProvider,
  isProviderName,
  MODEL_FLAGS,
  type ModelChoice,
  type ModelProvider,
  modelChoiceFromFlags,
  PROVIDER_NAMES,
  type ProviderName,
  providerHelpLines,
} from './model-choice';
export { type RunMainOptions, runMain } from './run-main';
export { RECORD_FLAG, type RunRecording, startRecording } from './run-recording';
export { type Colors, shorten, shouldColor, Terminal, type TerminalOptions } from './terminal';
