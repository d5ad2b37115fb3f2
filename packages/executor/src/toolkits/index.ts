export { calculatorToolkit } from './calculator';
export { type FileToolkitOptions, fileToolkit } from './file';
