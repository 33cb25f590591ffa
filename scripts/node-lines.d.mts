export declare const TEST_ROOTS: string[];
export type NodeLinesDeclaration = { kind: 'both' } | { kind: 'same'; reason: string } | { kind: 'invalid'; error: string };
export declare function headDeclaration(text: string, tag: string, word: string): null | { reason: string } | { error: string };
export declare function nodeLinesDeclaration(text: string): NodeLinesDeclaration;
export declare function testFiles(root?: string): string[];
export declare function declarations(root?: string): Array<{ file: string } & NodeLinesDeclaration>;
export declare function sameOnEveryNodeLine(root?: string): string[];
export declare function namedPaths(reason: string): string[];
export declare function coverageProblems(all?: Array<{ file: string } & NodeLinesDeclaration>): string[];
