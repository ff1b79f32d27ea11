/** Whether this code runs inside `bun build --compile`'s executable, whose own modules live in Bun's embedded file system. */
export const isSingleExecutable = (url: string = import.meta.url): boolean => url.includes('/$bunfs/') || url.includes('%24bunfs');
