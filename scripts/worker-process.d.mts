export type WorkerProcessDeclaration = { kind: 'own' } | { kind: 'shared'; reason: string } | { kind: 'invalid'; error: string };
export declare function workerProcessDeclaration(text: string): WorkerProcessDeclaration;
export declare function workerProcessDeclarations(root?: string): Array<{ file: string } & WorkerProcessDeclaration>;
export declare function sharedWorkerFiles(root?: string): string[];
