export async function main(argv: string[]): Promise<number> { console.log("hi", argv); return 0; }
