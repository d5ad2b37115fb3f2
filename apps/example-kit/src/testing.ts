export {
  type AppProcessOptions,
  type AppRun,
  inheritedEnv,
  runAppProcess,
  spawnAppProcess,
} from './app-process';
export { WrittenText } from './written-text';
