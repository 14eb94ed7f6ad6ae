export declare const serverDir: string;
export declare const distDir: string;
export declare function compileServer(opts: { entry: string; name: string }): Promise<void>;
