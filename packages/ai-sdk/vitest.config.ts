import { packageVitestConfig } from '../../vitest.shared.ts';

export default packageVitestConfig(import.meta.dirname);
