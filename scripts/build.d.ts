/** scripts/build.js: dist/ from src/ with tsc (see there). */
export declare function distIsFresh(): boolean;
export declare function rewriteDeclaration(text: string): string;
export declare function build(): number;
