// `@mtpx/inspector/internal`: the terminal drawing helpers the example apps share with the
// timeline (durations, calls, wrapping), the record's file layout, and the pieces the web
// app and the server are built from. Not for users: each symbol is tagged `@internal`.
export { eventLine } from './record/event-json';
export { INDEX_FILE, RUNS_FOLDER, runFileName, runFilePath } from './record/run-files';
export { parseRunText } from './record/run-store';
export { formatSpan } from './terminal/durations';
export { formatCall, formatMs, formatValue } from './terminal/format';
export { drawGantt, type GanttAxis, type GanttRow, ganttBar, ganttTicks } from './terminal/gantt';
export { visibleLength, wrapLine } from './terminal/line-wrap';
export { shorten } from './terminal/terminal-output';
export { inspectorRunView } from './view/run-model';
export { summarizeRun } from './view/run-summary';
export { layoutRound, type RoundLayout, roundSpan } from './web/timeline-layout';
