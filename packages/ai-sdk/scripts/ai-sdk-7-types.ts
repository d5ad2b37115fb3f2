// Type check run by ai-sdk-7.sh (not part of the package build): AI SDK 7's
// `LanguageModelV4`, from the AI SDK 7 prefix, is a model `fromLanguageModel` takes, as
// AI SDK 6's `LanguageModelV3` is.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { LanguageModelV4 } from '../../../.tools/ai-sdk-7/node_modules/@ai-sdk/provider';
import { fromLanguageModel } from '../src/model/from-language-model';

declare const modelV3: LanguageModelV3;
declare const modelV4: LanguageModelV4;
export const providers = [fromLanguageModel(modelV3), fromLanguageModel(modelV4)];
