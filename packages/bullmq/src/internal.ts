// `@mtpx/bullmq/internal`: what the apps (bench) need from @mtpx/bullmq but users should
// not. Each symbol is tagged `@internal` where it is declared.
export { retryDelayOf } from './retry-delay';
export { jobIdOf } from './wire';
