import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

export default defineConfig([packageTsupEntry(import.meta.dirname, { entry: ['src/index.ts'] })]);
