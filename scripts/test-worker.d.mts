export declare const STATE_WRITERS: Array<[RegExp, string]>;
export declare function declaresSharedWorker(text: string): boolean;
export declare function stateWrites(text: string): string[];
export declare function sharedWorkerFiles(root?: string): string[];
