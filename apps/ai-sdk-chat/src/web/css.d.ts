// The page's stylesheet is imported for its side effect and bundled by the page's build;
// type-checkers need to know such an import is a module (TypeScript 6+ checks side-effect
// imports: noUncheckedSideEffectImports).
declare module '*.css';
