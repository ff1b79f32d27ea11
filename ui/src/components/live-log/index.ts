/** The live log component and its pieces: LiveLog, the SSE follower, the stored-log download. */
export { LiveLog } from './live-log';
export { followTaskLog, type LogLine, type StreamStatus } from './log-stream';
export { fetchStoredLog, downloadStoredLog } from './download-log';
