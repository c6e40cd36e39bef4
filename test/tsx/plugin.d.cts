// tap compiles its Test class against each plugin's types.
export declare const importLoader: string
export declare const preload: true
export declare const testFileExtensions: string[]
