export type { CallHeldEvent, CallReleasedEvent } from './events/agent-events';
