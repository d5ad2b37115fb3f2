// Test support shared by every server's tests (never bundled: nothing in src/ imports it).
export * from './hostile-corpus';
export * from './keep-alive-probe';
export * from './raw-client';
