// Worker-thread entry for sub-agents (task:explore / task:general); the logic lives in src/agent.
export { default } from "../src/agent/sub-agent-worker.ts";
